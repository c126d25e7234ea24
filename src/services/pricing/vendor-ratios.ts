// Built-in prices of the catalogue kinds beyond OpenAI's family (spec §3): each model's public
// list price turned into the gateway's ratios by the spec's formula (§9). One ratio is $0.002 per
// 1K prompt tokens ($2 per million); prices in yuan are converted at the Price option's default,
// 7.3 yuan per dollar; the completion ratio is the output price over the input price. Each block
// names the price page and the date of the prices used. Free models have ratio 0 (served free
// upstream, like the local Ollama models). Operators override any entry with the ModelRatio and
// CompletionRatio options.
//
// Not priced here on purpose: Dify and FastGPT apps (their cost is whatever models the app's
// workflow calls, which the gateway cannot know, so the operator sets their price), the paid
// iFlytek Spark versions and 360's models (no public price page could be checked for them);
// those answer "倍率或价格未配置" until the operator prices them.

type Price = { ratio: number; completion?: number };

const yuanPerDollar = 7.3;
const dollarsPerMillionAtRatioOne = 2;

/** Six decimals are plenty for a ratio and keep the tables readable where they are shown. */
const rounded = (value: number) => Math.round(value * 1e6) / 1e6;

function priced(inputDollarsPerMillion: number, input: number, output: number): Price {
  const ratio = rounded(inputDollarsPerMillion / dollarsPerMillionAtRatioOne);
  return input > 0 && output !== input ? { ratio, completion: rounded(output / input) } : { ratio };
}

/** Yuan per million tokens (input, output) as ratios. */
const yuan = (input: number, output = input) => priced(input / yuanPerDollar, input, output);

/** Dollars per million tokens (input, output) as ratios. */
const usd = (input: number, output = input) => priced(input, input, output);

const free: Price = { ratio: 0 };

const prices: Record<string, Price> = {
  // Baidu Qianfan, cloud.baidu.com/doc/WENXINWORKSHOP/s/hlrk4akp7 (list prices of 2024-10; the
  // Speed, Lite and Tiny models free since 2024-05-21). The v2 API bills the same models alike.
  "ERNIE-4.0-8K": yuan(30, 90),
  "ERNIE-4.0-Turbo-8K": yuan(20, 60),
  "ERNIE-3.5-8K": yuan(0.8, 2),
  "ERNIE-3.5-128K": yuan(0.8, 2),
  "ERNIE-Speed-8K": free,
  "ERNIE-Speed-128K": free,
  "ERNIE-Lite-8K": free,
  "ERNIE-Tiny-8K": free,
  "Embedding-V1": yuan(0.5),
  "bge-large-zh": yuan(0.5),
  "tao-8k": yuan(0.5),
  "ernie-4.0-8k-latest": yuan(30, 90),
  "ernie-4.0-turbo-8k": yuan(20, 60),
  "ernie-3.5-8k": yuan(0.8, 2),
  "ernie-speed-128k": free,
  "ernie-lite-8k": free,
  "embedding-v1": yuan(0.5),

  // Alibaba Model Studio (DashScope), help.aliyun.com/zh/model-studio/models (2025-01).
  "qwen-turbo": yuan(0.3, 0.6),
  "qwen-plus": yuan(0.8, 2),
  "qwen-max": yuan(2.4, 9.6),
  "qwen-long": yuan(0.5, 2),
  "qwen-vl-plus": yuan(1.5, 4.5),
  "qwen-vl-max": yuan(3, 9),
  "text-embedding-v1": yuan(0.7),
  "text-embedding-v2": yuan(0.7),
  "text-embedding-v3": yuan(0.5),

  // iFlytek Spark, xinghuo.xfyun.cn/sparkapi (2024-06): Spark Lite (v1.1) is free.
  "SparkDesk-v1.1": free,

  // Zhipu, bigmodel.cn/pricing (2024-09; input and output at one price); the v3 ChatGLM models at
  // their open.bigmodel.cn prices of 2023-11.
  "glm-4": yuan(100),
  "glm-4-plus": yuan(50),
  "glm-4v": yuan(50),
  "glm-4-flash": free,
  "glm-3-turbo": yuan(1),
  "embedding-2": yuan(0.5),
  "embedding-3": yuan(0.5),
  "chatglm_pro": yuan(10),
  "chatglm_std": yuan(5),
  "chatglm_lite": yuan(2),
  "chatglm_turbo": yuan(5),

  // Volcano Ark (Doubao), volcengine.com/docs/82379/1099320 (2025-01).
  "doubao-pro-32k": yuan(0.8, 2),
  "doubao-lite-32k": yuan(0.3, 0.6),
  "doubao-1-5-pro-32k-250115": yuan(0.8, 2),
  "doubao-1-5-lite-32k-250115": yuan(0.3, 0.6),
  "doubao-embedding": yuan(0.5),
  "doubao-embedding-text-240715": yuan(0.5),

  // Tencent Hunyuan, cloud.tencent.com/document/product/1729/97731 (2024-10).
  "hunyuan-lite": free,
  "hunyuan-standard": yuan(0.8, 2),
  "hunyuan-pro": yuan(30, 100),
  "hunyuan-turbo": yuan(15, 50),
  "hunyuan-embedding": yuan(0.7),

  // MiniMax, platform.minimaxi.com/document/Price (2025-01).
  "abab6.5s-chat": yuan(1),
  "abab6.5-chat": yuan(30),
  "MiniMax-Text-01": yuan(1, 8),

  // Cohere, cohere.com/pricing (2025-03). Rerank is billed per search unit ($2 per 1,000), which
  // the Cohere adaptor reports as the prompt count: $0.002 per unit is ratio 1000.
  "command-r": usd(0.15, 0.6),
  "command-r-plus": usd(2.5, 10),
  "command-r7b-12-2024": usd(0.0375, 0.15),
  "command-a-03-2025": usd(2.5, 10),
  "rerank-v3.5": { ratio: 1000 },
  "rerank-english-v3.0": { ratio: 1000 },
  "rerank-multilingual-v3.0": { ratio: 1000 },

  // Cloudflare Workers AI, developers.cloudflare.com/workers-ai/platform/pricing (2025-02).
  "@cf/meta/llama-3.1-8b-instruct": usd(0.282, 0.827),
  "@cf/meta/llama-3.3-70b-instruct-fp8-fast": usd(0.293, 2.253),
  "@cf/baai/bge-m3": usd(0.012),

  // Jina, jina.ai/embeddings (API tokens, 2025: 1 billion tokens for $50, every model alike).
  "jina-embeddings-v3": usd(0.05),
  "jina-clip-v1": usd(0.05),
  "jina-reranker-v2-base-multilingual": usd(0.05),

  // MokaAI M3E runs on the operator's own server: free upstream, like local Ollama models.
  "m3e-base": free,
  "m3e-large": free,
  "m3e-small": free,

  // Google: PaLM 2 chat (chat-bison) at Vertex AI's $0.00025 / $0.0005 per 1K characters
  // (2024-01), taken as four characters per token; Vertex's Claude 3.5 Sonnet v2 at Anthropic's
  // list price for the same model.
  "PaLM-2": usd(1, 2),
  "claude-3-5-sonnet-v2@20241022": usd(3, 15),
};

/** Image models priced per image, in dollars (yuan converted at 7.3). */
export const vendorModelPrices: Record<string, number> = {
  // DashScope wanx-v1: 0.16 yuan per image (help.aliyun.com, 2024-09).
  "wanx-v1": rounded(0.16 / yuanPerDollar),
  // Zhipu CogView-3: 0.1 yuan per image (bigmodel.cn/pricing, 2024-09).
  "cogview-3": rounded(0.1 / yuanPerDollar),
};

export const vendorModelRatios: Record<string, number> = Object.fromEntries(Object.entries(prices).map(([model, price]) => [model, price.ratio]));

export const vendorCompletionRatios: Record<string, number> = Object.fromEntries(
  Object.entries(prices).flatMap(([model, price]) => (price.completion === undefined ? [] : [[model, price.completion]])),
);
