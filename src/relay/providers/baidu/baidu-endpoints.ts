// Where each ERNIE model lives on Baidu's v1 API (wenxinworkshop): the public names map to
// endpoint names that are often not the model's name (ERNIE-4.0-8K is completions_pro). Names
// not listed use the lower-cased model name, which is the rule for Baidu's newer endpoints
// (ERNIE-4.0-Turbo-8K → ernie-4.0-turbo-8k). Source: Baidu's Qianfan SDK model table.
const chatEndpoints: Record<string, string> = {
  "ERNIE-4.0-8K": "completions_pro",
  "ERNIE-Bot-4": "completions_pro",
  "ERNIE-4.0-8K-Preview-0518": "completions_adv_pro",
  "ERNIE-3.5-8K": "completions",
  "ERNIE-Bot": "completions",
  "ERNIE 3.5": "completions",
  "ERNIE-Lite-8K-0922": "eb-instant",
  "ERNIE-Bot-turbo": "eb-instant",
  "ERNIE-Lite-8K": "ernie-lite-8k",
  "ERNIE-Lite-8K-0308": "ernie-lite-8k",
  "ERNIE-Speed-8K": "ernie_speed",
  "ERNIE-Speed": "ernie_speed",
  "ERNIE Speed": "ernie_speed",
  "ERNIE Speed-AppBuilder": "ai_apaas",
  "ERNIE-Bot-turbo-AI": "ai_apaas",
  "EB-turbo-AppBuilder": "ai_apaas",
  "ERNIE-Lite-AppBuilder-8K-0614": "ai_apaas_lite",
  "ERNIE-Function-8K": "ernie-func-8k",
  "ERNIE-Functions-8K": "ernie-func-8k",
  "ERNIE-Character-8K": "ernie-char-8k",
  "ERNIE-Character-Fiction-8K": "ernie-char-fiction-8k",
  "BLOOMZ-7B": "bloomz_7b1",
  "Llama-2-7B-Chat": "llama_2_7b",
  "Llama-2-13B-Chat": "llama_2_13b",
  "Llama-2-70B-Chat": "llama_2_70b",
  "Meta-Llama-3-8B": "llama_3_8b",
  "Meta-Llama-3-70B": "llama_3_70b",
  "Qianfan-BLOOMZ-7B-compressed": "qianfan_bloomz_7b_compressed",
  "Qianfan-Chinese-Llama-2-7B": "qianfan_chinese_llama_2_7b",
  "Qianfan-Chinese-Llama-2-13B": "qianfan_chinese_llama_2_13b",
  "Qianfan-Chinese-Llama-2-70B": "qianfan_chinese_llama_2_70b",
  "ChatGLM2-6B-32K": "chatglm2_6b_32k",
  "AquilaChat-7B": "aquilachat_7b",
  "XuanYuan-70B-Chat-4bit": "xuanyuan_70b_chat",
  ChatLaw: "chatlaw",
  "Yi-34B-Chat": "yi_34b_chat",
  "Mixtral-8x7B-Instruct": "mixtral_8x7b_instruct",
  "Gemma-7B-it": "gemma_7b_it",
};

const embeddingEndpoints: Record<string, string> = {
  "Embedding-V1": "embedding-v1",
  "bge-large-en": "bge_large_en",
  "bge-large-zh": "bge_large_zh",
  "tao-8k": "tao_8k",
};

export function chatEndpointOf(model: string): string {
  return chatEndpoints[model] ?? model.toLowerCase();
}

export function embeddingEndpointOf(model: string): string {
  return embeddingEndpoints[model] ?? model.toLowerCase();
}
