// The /v1 routes in the API reference. Their bodies are OpenAI's (the relay forwards the
// client's own bytes and reads only what it needs), so they are described in words with a link
// to OpenAI's reference rather than re-specified here.
import { operation as op, type OperationCatalogue } from "./operations.ts";

const forwarded = (reads: string) => `OpenAI's request body, forwarded as sent; the relay reads ${reads}`;
const multipart = (reads: string) => `multipart/form-data as OpenAI defines it; the relay reads ${reads}`;

export const relayOperations: OperationCatalogue = {
  "POST /v1/chat/completions": op("Relay", "relay", "对话补全，完整返回或流式返回（服务器发送事件）", {
    bodyNote: forwarded("model, messages (to count the prompt), stream, stream_options, max_tokens / max_completion_tokens"),
  }),
  "POST /v1/messages": op(
    "Relay",
    "relay",
    "Anthropic Messages API（Claude 客户端）：对讲 Claude 协议的渠道直接透传，对其他渠道进行转换；错误为 Anthropic 的格式",
    {
      bodyNote: "Anthropic's request body; the relay reads model, max_tokens, stream, system and messages (auth: x-api-key or Bearer)",
    },
  ),
  "POST /v1/messages/count_tokens": op("Relay", "relay", "Anthropic Token 计数，在本地计算且免费", {
    bodyNote: "Anthropic's count_tokens body",
  }),
  "POST /v1/responses": op(
    "Relay",
    "relay",
    "OpenAI Responses API，完整返回或流式返回：对 OpenAI 与 Azure 渠道直接透传，对其他渠道进行转换；响应按用户保存（store），previous_response_id 与 item_reference 可跨任意渠道使用",
    {
      bodyNote: forwarded("model, input, instructions, tools, stream, store, previous_response_id, max_output_tokens, reasoning"),
    },
  ),
  "GET /v1/responses/:id": op("Relay", "relay", "为调用者保存的一个响应：来自网关自己的存储，或向保存它的 OpenAI 或 Azure 渠道查询"),
  "DELETE /v1/responses/:id": op("Relay", "relay", "删除为调用者保存的一个响应（在本站，或在保存它的渠道上）"),
  "GET /v1/responses/:id/input_items": op("Relay", "relay", "为调用者保存的响应的输入项（after、limit、order）"),
  "POST /v1/completions": op("Relay", "relay", "文本补全（旧版）", { bodyNote: forwarded("model, prompt, stream, max_tokens") }),
  "POST /v1/embeddings": op("Relay", "relay", "向量嵌入", { bodyNote: forwarded("model and input") }),
  "POST /v1/engines/:model/embeddings": op("Relay", "relay", "向量嵌入，模型由路径指定（旧版）", {
    bodyNote: forwarded("input"),
  }),
  "POST /v1/moderations": op("Relay", "relay", "内容审核", { bodyNote: forwarded("model (default text-moderation-stable) and input") }),
  "POST /v1/rerank": op("Relay", "relay", "重排序（Cohere 与 Jina 风格）", { bodyNote: forwarded("model, query and documents") }),
  "POST /v1/images/generations": op("Relay", "relay", "图像生成；按尺寸与质量逐张计价", {
    bodyNote: forwarded("model (default dall-e-2), n, size, quality"),
  }),
  "POST /v1/images/edits": op("Relay", "relay", "图像编辑", { bodyNote: multipart("model (default dall-e-2), n, size") }),
  "POST /v1/images/variations": op("Relay", "relay", "图像变体：未实现（501，与 new-api 相同）"),
  "POST /v1/audio/speech": op("Relay", "relay", "文本转语音；按输入的字符数计价", {
    bodyNote: forwarded("model (default tts-1) and input"),
  }),
  "POST /v1/audio/transcriptions": op("Relay", "relay", "语音转文字", { bodyNote: multipart("model (default whisper-1) and file") }),
  "POST /v1/audio/translations": op("Relay", "relay", "语音转英文文本", {
    bodyNote: multipart("model (default whisper-1) and file"),
  }),
  "GET /v1/models": op("Relay", "relay", "令牌可调用的模型"),
  "GET /v1/models/*": op("Relay", "relay", "令牌可调用的单个模型（其他模型返回 404）"),
  "DELETE /v1/models/*": op("Relay", "relay", "删除微调模型：未实现（501）"),
  "ALL /v1/files*": op("Relay", "relay", "OpenAI 文件接口：未实现（501）"),
  "ALL /v1/fine-tunes*": op("Relay", "relay", "OpenAI 微调接口：未实现（501）"),
  "GET /v1/dashboard/billing/subscription": op("Relay", "relay", "OpenAI 风格的账单：令牌（或用户）的额度上限，以美元或额度表示"),
  "GET /v1/dashboard/billing/usage": op("Relay", "relay", "OpenAI 风格的账单：令牌（或用户）的用量"),
  "OPTIONS /v1/*": op("Relay", "public", "CORS 预检请求"),
};
