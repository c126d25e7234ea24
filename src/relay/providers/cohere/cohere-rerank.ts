// Rerank on Cohere's v2 API (POST /v2/rerank). The relay's /v1/rerank speaks the Jina-style
// format ({model, query, documents, top_n, return_documents} in; {results: [{index,
// relevance_score, document: {text}}], usage} out); Cohere v2 takes only text documents and
// never returns them, so the texts are added from the request when the client asks. Cohere bills
// rerank by search units (one query over up to 100 documents), reported as the prompt count so
// the model's ratio prices one search unit.
import type { Bytes, ConvertedResponse, RelayCall } from "../adaptor.ts";
import { numberField } from "../vendor-format-helpers/chat-request.ts";
import { failedAnswer, usageOf } from "../vendor-format-helpers/whole-answer.ts";

function documentTexts(call: RelayCall): string[] {
  const documents = call.json?.documents;
  if (!Array.isArray(documents)) return [];
  return documents.map((document) =>
    typeof document === "string" ? document : typeof document?.text === "string" ? document.text : JSON.stringify(document),
  );
}

export function cohereRerankBody(call: RelayCall): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: call.upstreamModel,
    query: String(call.json?.query ?? ""),
    documents: documentTexts(call),
  };
  const topN = numberField(call, "top_n");
  if (topN !== undefined) body.top_n = topN;
  const maxTokens = numberField(call, "max_tokens_per_doc");
  if (maxTokens !== undefined) body.max_tokens_per_doc = maxTokens;
  return body;
}

type CohereRerank = {
  id?: string;
  results?: { index?: number; relevance_score?: number }[];
  meta?: { billed_units?: { search_units?: number } };
};

export function convertCohereRerank(call: RelayCall, bytes: Bytes): ConvertedResponse {
  let answer: CohereRerank | undefined;
  try {
    answer = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    answer = undefined;
  }
  if (!Array.isArray(answer?.results))
    return failedAnswer({ message: "unreadable answer", type: "upstream_error", code: "bad_response_body", param: null });
  const texts = documentTexts(call);
  const withDocuments = call.json?.return_documents === true;
  const results = answer.results.map((result) => ({
    index: result.index ?? 0,
    relevance_score: result.relevance_score ?? 0,
    ...(withDocuments ? { document: { text: texts[result.index ?? 0] ?? "" } } : {}),
  }));
  const usage = usageOf(answer.meta?.billed_units?.search_units, 0);
  const body = { id: answer.id, model: call.model, results, usage: usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } };
  return { body: JSON.stringify(body), contentType: "application/json", usage, output: () => ({ text: "", toolCalls: 0 }) };
}
