// "/setting?tab=operation" (super admin): how the site runs day to day: general display, quotas
// given away, channel monitoring, drawing and tasks, the dashboard, sensitive words, logs and
// payment (docs/COMPATIBILITY.md, Option keys). Each section saves only what changed.
import { defaultChats } from "../../../services/options/option-registry.ts";
import type { PageContext } from "../../page-context.ts";
import { FieldGrid, OptionInput, OptionSection, OptionSelect, OptionTextarea, OptionToggle } from "./option-fields.tsx";
import { LogSection, PaymentSection } from "./operation-money-sections.tsx";

function GeneralSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="operation-general" title={t("通用设置")}>
      <FieldGrid>
        <OptionInput context={context} name="TopUpLink" label={t("充值链接")} placeholder={t("例如发卡网站的购买链接")} type="url" />
        <OptionInput context={context} name="ChatLink" label={t("默认聊天页面链接")} placeholder={t("例如 ChatGPT Next Web 的部署地址")} />
        <OptionInput context={context} name="ChatLink2" label={t("聊天页面 2 链接")} />
        <OptionInput context={context} name="QuotaPerUnit" label={t("单位美元额度")} hint={t("一单位货币能兑换的额度")} type="number" />
        <OptionInput context={context} name="RetryTimes" label={t("失败重试次数")} type="number" />
        <OptionSelect
          context={context}
          name="RelayErrorLanguage"
          label={t("接口错误信息的默认语言")}
          hint={t("客户端的 Accept-Language 指明中文或英文时以它为准")}
          choices={[
            { value: "zh", label: t("中文") },
            { value: "en", label: "English" },
          ]}
        />
      </FieldGrid>
      <OptionTextarea
        context={context}
        name="Chats"
        label={t("聊天配置")}
        hint={t('JSON 列表，每项为 {"名称": "链接"}，链接中的 {key} 与 {address} 会被替换')}
        json
        rows={5}
        preset={{ label: t("启用默认聊天链接"), value: JSON.stringify(defaultChats, null, 2) }}
      />
      <div class="grid gap-2 md:grid-cols-2">
        <OptionToggle context={context} name="DisplayInCurrencyEnabled" label={t("以货币形式显示额度")} />
        <OptionToggle context={context} name="DisplayTokenStatEnabled" label={t("额度查询接口返回令牌额度而非用户额度")} />
        <OptionToggle context={context} name="DefaultCollapseSidebar" label={t("默认折叠侧边栏")} />
        <OptionToggle context={context} name="DemoSiteEnabled" label={t("演示站点模式")} />
      </div>
    </OptionSection>
  );
}

function QuotaSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="operation-quota" title={t("额度设置")}>
      <FieldGrid>
        <OptionInput context={context} name="QuotaForNewUser" label={t("新用户初始额度")} type="number" />
        <OptionInput context={context} name="PreConsumedQuota" label={t("请求预扣费额度")} hint={t("请求结束后多退少补")} type="number" />
        <OptionInput context={context} name="QuotaForInviter" label={t("邀请新用户奖励额度")} type="number" />
        <OptionInput context={context} name="QuotaForInvitee" label={t("新用户使用邀请码奖励额度")} type="number" />
      </FieldGrid>
    </OptionSection>
  );
}

function MonitoringSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="operation-monitoring" title={t("监控设置")}>
      <FieldGrid>
        <OptionInput
          context={context}
          name="ChannelDisableThreshold"
          label={t("最长响应时间（秒）")}
          hint={t("测试时超过此时间的渠道将被自动禁用")}
          type="number"
        />
        <OptionInput
          context={context}
          name="QuotaRemindThreshold"
          label={t("额度提醒阈值")}
          hint={t("低于此额度时将通知用户")}
          type="number"
        />
      </FieldGrid>
      <OptionTextarea
        context={context}
        name="AutomaticDisableKeywords"
        label={t("自动禁用关键词")}
        hint={t("一行一个，上游错误包含其中之一时自动禁用渠道")}
        rows={5}
      />
      <div class="grid gap-2 md:grid-cols-2">
        <OptionToggle context={context} name="AutomaticDisableChannelEnabled" label={t("失败时自动禁用通道")} />
        <OptionToggle context={context} name="AutomaticEnableChannelEnabled" label={t("成功时自动启用通道")} />
      </div>
    </OptionSection>
  );
}

function DrawingSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="operation-drawing" title={t("绘图设置")}>
      <div class="grid gap-2 md:grid-cols-2">
        <OptionToggle context={context} name="DrawingEnabled" label={t("启用绘图功能")} />
        <OptionToggle context={context} name="TaskEnabled" label={t("启用异步任务")} />
        <OptionToggle context={context} name="MjNotifyEnabled" label={t("允许回调（会泄露服务器 IP 地址）")} />
        <OptionToggle context={context} name="MjAccountFilterEnabled" label={t("允许 AccountFilter 参数")} />
        <OptionToggle context={context} name="MjForwardUrlEnabled" label={t("开启之后将上游地址替换为服务器地址")} />
        <OptionToggle
          context={context}
          name="MjModeClearEnabled"
          label={t("开启之后会清除用户提示词中的 --fast、--relax 以及 --turbo 参数")}
        />
        <OptionToggle context={context} name="MjActionCheckSuccessEnabled" label={t("检测必须等待绘图成功才能进行放大等操作")} />
      </div>
    </OptionSection>
  );
}

function DashboardSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="operation-dashboard" title={t("数据看板设置")}>
      <OptionToggle context={context} name="DataExportEnabled" label={t("启用数据看板")} />
      <FieldGrid>
        <OptionInput
          context={context}
          name="DataExportInterval"
          label={t("数据看板更新间隔（分钟）")}
          hint={t("至少 1 分钟")}
          type="number"
        />
        <OptionSelect
          context={context}
          name="DataExportDefaultTime"
          label={t("数据看板默认时间粒度")}
          choices={[
            { value: "hour", label: t("小时") },
            { value: "day", label: t("天") },
            { value: "week", label: t("周") },
          ]}
        />
      </FieldGrid>
    </OptionSection>
  );
}

function SensitiveWordsSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="operation-sensitive" title={t("屏蔽词过滤设置")}>
      <div class="grid gap-2 md:grid-cols-2">
        <OptionToggle context={context} name="CheckSensitiveEnabled" label={t("启用屏蔽词过滤功能")} />
        <OptionToggle context={context} name="CheckSensitiveOnPromptEnabled" label={t("启用 Prompt 检查")} />
      </div>
      <OptionTextarea context={context} name="SensitiveWords" label={t("屏蔽词列表")} hint={t("一行一个屏蔽词，不需要符号分割")} rows={6} />
    </OptionSection>
  );
}

export function operationTab(context: PageContext): JSX.Element {
  return (
    <div class="flex flex-col gap-4">
      <GeneralSection context={context} />
      <QuotaSection context={context} />
      <MonitoringSection context={context} />
      <DrawingSection context={context} />
      <LogSection context={context} />
      <DashboardSection context={context} />
      <SensitiveWordsSection context={context} />
      <PaymentSection context={context} />
    </div>
  );
}
