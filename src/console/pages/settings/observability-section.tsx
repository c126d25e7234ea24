// "/setting?tab=system", the gateway watched from outside (issue 16): Prometheus metrics at
// GET /metrics behind a bearer token, and daily backups of the SQLite store with a retention
// count. METRICS_ENABLED / BACKUP_DIR in the environment switch the same things on for
// deployments that configure by environment only (README, "Metrics" and "Backups").
import type { PageContext } from "../../page-context.ts";
import { FieldGrid, OptionInput, OptionSection, OptionToggle } from "./option-fields.tsx";

export function ObservabilitySection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="system-observability" title={t("指标与备份")} submit={t("保存指标与备份设置")}>
      <p class="text-base-content/70 text-sm" safe>
        {t("开启后 Prometheus 可凭访问令牌从 /metrics 抓取指标")}
      </p>
      <div class="grid gap-2 md:grid-cols-2">
        <OptionToggle context={context} name="MetricsEnabled" label={t("启用 Prometheus 指标接口")} />
        <OptionToggle context={context} name="DailyBackupEnabled" label={t("每日备份 SQLite 数据库")} />
      </div>
      <FieldGrid>
        <OptionInput
          context={context}
          name="MetricsToken"
          label={t("指标接口的访问令牌")}
          hint={t("至少 16 个字符，以 Authorization: Bearer 发送")}
        />
        <OptionInput
          context={context}
          name="DailyBackupKeep"
          label={t("保留的备份份数")}
          hint={t("备份保存在数据库文件旁的 backups 目录（设置了 BACKUP_DIR 时保存在该目录）；PostgreSQL 请使用 pg_dump")}
          type="number"
        />
      </FieldGrid>
    </OptionSection>
  );
}
