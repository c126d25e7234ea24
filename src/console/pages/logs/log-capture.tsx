// The request inspector's capture of a log entry (issue 27), in a dialog opened from the row's
// details: the request (method, path, headers without credentials, body) and the answer the
// client received, each cut at 256 KB. Read through the same service as GET /api/log/{id}/capture,
// so the entry's user and the admins see it and anyone else is told there is none.
import { isAppError } from "../../../errors/app-error.ts";
import { type CaptureView, readCapture } from "../../../services/captures/capture-store.ts";
import { Modal } from "../../components/modal.tsx";
import { formatUnixTime } from "../../format.ts";
import { fragmentResponse } from "../../fragment.ts";
import type { SignedInPageContext } from "../../page-context.ts";

export const logCaptureSlot = "log-capture-slot";

function Body(props: { context: SignedInPageContext; title: string; text: string; size: number; cut: boolean }) {
  const { context, title, text, size, cut } = props;
  const { t } = context;
  return (
    <section class="flex flex-col gap-1">
      <h3 class="text-sm font-semibold" safe>
        {title}
      </h3>
      <p class="text-base-content/60 text-xs" safe>
        {cut ? t("共 {{size}} 字节，仅保留前 256 KB", { size }) : t("共 {{size}} 字节", { size })}
      </p>
      <pre class="bg-base-200 max-h-72 overflow-auto whitespace-pre-wrap break-all rounded p-2 text-xs" safe>
        {text}
      </pre>
    </section>
  );
}

function CaptureContent(props: { context: SignedInPageContext; capture: CaptureView }) {
  const { context, capture } = props;
  const { t } = context;
  const headers = Object.entries(capture.request_headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join("\n");
  return (
    <div class="flex flex-col gap-3" data-log-capture={String(capture.log_id)}>
      <p class="text-sm break-all" safe>{`${capture.method} ${capture.path}`}</p>
      <p class="text-base-content/60 text-xs" safe>
        {t("保存至 {{time}}，之后自动删除", { time: formatUnixTime(capture.expires_at) })}
      </p>
      <Body context={context} title={t("请求头（不含凭据）")} text={headers} size={Buffer.byteLength(headers)} cut={false} />
      <Body context={context} title={t("请求体")} text={capture.request_body} size={capture.request_size} cut={capture.request_truncated} />
      <Body
        context={context}
        title={
          capture.is_stream
            ? t("响应（状态 {{status}}，流式，客户端收到的文本）", { status: capture.response_status })
            : t("响应（状态 {{status}}）", { status: capture.response_status })
        }
        text={capture.response_body}
        size={capture.response_size}
        cut={capture.response_truncated}
      />
    </div>
  );
}

export async function logCaptureFragment(context: SignedInPageContext, logId: number): Promise<Response> {
  const { t } = context;
  let capture: CaptureView | undefined;
  let missing = "";
  try {
    capture = await readCapture(context.user, logId);
  } catch (error) {
    if (!isAppError(error)) throw error;
    missing = t(error.messageKey);
  }
  return fragmentResponse(
    context,
    <Modal id="log-capture" t={t} title={t("请求记录")} open wide>
      {capture ? <CaptureContent context={context} capture={capture} /> : <p safe>{missing}</p>}
    </Modal>,
  );
}
