// The playground's state as data: one or two panes (two = side by side on the same prompts), each
// with its model and messages; the system prompt, parameters and group shared by both. It is kept
// in localStorage per user, so a reload (or the next visit) finds the conversation where it was.

export type MessageState = "loading" | "incomplete" | "complete" | "error";

export type AnswerStats = {
  model: string;
  promptTokens?: number;
  completionTokens?: number;
  /** Quota the answer cost, by the site's prices (absent when the usage never arrived). */
  quota?: number;
  /** Milliseconds from sending to the first piece of the answer (streamed answers). */
  firstTokenMs?: number;
  tokensPerSecond?: number;
  durationMs: number;
};

export type Message = {
  id: string;
  role: "user" | "assistant";
  content: string;
  /** data: URLs of attached pictures (user messages). */
  images?: string[];
  /** The model's reasoning, shown folded (assistant messages). */
  reasoning?: string;
  state: MessageState;
  /** Stopped by the user while it streamed: what arrived is kept. */
  stopped?: boolean;
  error?: string;
  stats?: AnswerStats;
};

export type Pane = { model: string; messages: Message[] };

export type ReasoningEffort = "" | "low" | "medium" | "high";

export type Parameters = {
  temperature: number;
  /** Optional parameters are sent only when switched on. */
  topPEnabled: boolean;
  topP: number;
  /** 0 = not sent (the model's own limit). */
  maxTokens: number;
  /** One stop sequence per line, at most 4 (OpenAI's limit). */
  stop: string;
  presenceEnabled: boolean;
  presencePenalty: number;
  frequencyEnabled: boolean;
  frequencyPenalty: number;
  stream: boolean;
  reasoningEffort: ReasoningEffort;
};

export type PlaygroundState = {
  system: string;
  group: string;
  parameters: Parameters;
  panes: Pane[];
};

export const defaultParameters: Parameters = {
  temperature: 0.7,
  topPEnabled: false,
  topP: 1,
  maxTokens: 0,
  stop: "",
  presenceEnabled: false,
  presencePenalty: 0,
  frequencyEnabled: false,
  frequencyPenalty: 0,
  stream: true,
  reasoningEffort: "",
};

export const newId = () => Math.random().toString(36).slice(2, 10) + Date.now().toString(36);

export const storageKey = (userId: number) => `playground:${userId}`;

/** The stop sequences as OpenAI takes them (absent when there are none). */
export function stopSequences(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/\\n/g, "\n"))
    .filter((line) => line.length > 0)
    .slice(0, 4);
}

/** An answer still streaming when the page went away is kept as stopped (or dropped if empty). */
function settled(message: Message): Message | undefined {
  if (message.state !== "loading" && message.state !== "incomplete") return message;
  if (!message.content && !message.reasoning) return undefined;
  return { ...message, state: "complete", stopped: true };
}

export function restoreState(userId: number, fallback: PlaygroundState): PlaygroundState {
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey(userId)) ?? "null") as Partial<PlaygroundState> | null;
    if (!saved || !Array.isArray(saved.panes) || saved.panes.length === 0) return fallback;
    const panes = saved.panes.slice(0, 2).map((pane) => ({
      model: typeof pane.model === "string" && pane.model ? pane.model : fallback.panes[0]!.model,
      messages: (Array.isArray(pane.messages) ? pane.messages : []).map(settled).filter((message): message is Message => Boolean(message)),
    }));
    return {
      system: typeof saved.system === "string" ? saved.system : "",
      group: typeof saved.group === "string" && saved.group ? saved.group : fallback.group,
      parameters: { ...defaultParameters, ...(saved.parameters ?? {}) },
      panes,
    };
  } catch {
    return fallback;
  }
}

const withoutImages = (state: PlaygroundState): PlaygroundState => ({
  ...state,
  panes: state.panes.map((pane) => ({
    ...pane,
    messages: pane.messages.map((message) => (message.images ? { ...message, images: [] } : message)),
  })),
});

/**
 * Saves the state. Pictures can fill the browser's few megabytes for the site: when they do,
 * the conversation is kept without them rather than not at all. Returns false if even that failed.
 */
export function saveState(userId: number, state: PlaygroundState): boolean {
  for (const candidate of [state, withoutImages(state)]) {
    try {
      localStorage.setItem(storageKey(userId), JSON.stringify(candidate));
      return true;
    } catch {
      // quota exceeded: try the lighter copy
    }
  }
  return false;
}
