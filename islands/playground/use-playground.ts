// The playground's behaviour: sending a prompt to one pane or both (side by side), stopping,
// editing, answering again and deleting messages, clearing, and keeping it all in localStorage.
// Every answer runs with its own AbortController; updates address a message by id, so a late
// chunk of an answer that was cleared or deleted changes nothing.
import { useCallback, useEffect, useRef, useState } from "react";
import { answerQuota, type PriceList } from "./answer-cost.ts";
import { chatBody } from "./chat-request.ts";
import { sendChat, type ChatOutcome } from "./chat-stream.ts";
import { newId, restoreState, saveState, type Message, type Parameters, type PlaygroundState } from "./conversation.ts";

type Options = { userId: number; initial: PlaygroundState; prices: PriceList; quotaPerUnit: number };

function statsOf(outcome: ChatOutcome, model: string, group: string, options: Options): Message["stats"] {
  const usage = outcome.usage;
  const completion = usage?.completion_tokens;
  // A burst shorter than this (an answer that arrived whole) says nothing about speed; the whole
  // time from sending is the honest divisor then.
  const generation = outcome.timing.generationMs ?? 0;
  const seconds = (generation >= 250 ? generation : outcome.timing.durationMs) / 1000;
  return {
    model,
    promptTokens: usage?.prompt_tokens,
    completionTokens: completion,
    quota: answerQuota(options.prices, model, group, usage, options.quotaPerUnit),
    firstTokenMs: outcome.timing.firstTokenMs,
    tokensPerSecond: completion !== undefined && seconds > 0 ? completion / seconds : undefined,
    durationMs: outcome.timing.durationMs,
  };
}

export function usePlayground(options: Options) {
  const [state, setState] = useState<PlaygroundState>(options.initial);
  const [restored, setRestored] = useState(false);
  const controllers = useRef(new Map<string, AbortController>());
  const latest = useRef(state);
  latest.current = state;

  // The saved conversation is read after hydration, so the server's HTML and the first render agree.
  useEffect(() => {
    setState(restoreState(options.userId, options.initial));
    setRestored(true);
  }, [options.userId, options.initial]);

  useEffect(() => {
    if (restored) saveState(options.userId, state);
  }, [state, restored, options.userId]);

  const updateMessage = useCallback((pane: number, id: string, change: (message: Message) => Message) => {
    setState((current) => ({
      ...current,
      panes: current.panes.map((entry, index) =>
        index === pane ? { ...entry, messages: entry.messages.map((message) => (message.id === id ? change(message) : message)) } : entry,
      ),
    }));
  }, []);

  /** Streams an answer for the pane's history (which ends with the user's message) into message `id`. */
  const answer = useCallback(
    async (pane: number, history: Message[], id: string) => {
      const { system, group, parameters, panes } = latest.current;
      const model = panes[pane]!.model;
      const controller = new AbortController();
      controllers.current.set(id, controller);
      const grow = (field: "content" | "reasoning") => (piece: string) =>
        updateMessage(pane, id, (message) => ({ ...message, [field]: (message[field] ?? "") + piece, state: "incomplete" }));
      const outcome = await sendChat(
        chatBody({ model, system, history, parameters, group }),
        { content: grow("content"), reasoning: grow("reasoning") },
        controller.signal,
      );
      controllers.current.delete(id);
      const stats = statsOf(outcome, model, group, options);
      updateMessage(pane, id, (message) => {
        if (outcome.ok) return { ...message, state: "complete", stats };
        if (outcome.stopped) return { ...message, state: "complete", stopped: true, stats };
        return { ...message, state: "error", error: outcome.error, stats };
      });
    },
    [updateMessage, options],
  );

  const busy = state.panes.some((pane) => pane.messages.some((message) => message.state === "loading" || message.state === "incomplete"));

  /** Sends a new user message to every pane. */
  const send = useCallback(
    (text: string, images: string[]) => {
      const turns = latest.current.panes.map((pane) => ({
        user: { id: newId(), role: "user", content: text, images: images.length ? images : undefined, state: "complete" } as Message,
        reply: { id: newId(), role: "assistant", content: "", state: "loading" } as Message,
        before: pane.messages,
      }));
      setState((current) => ({
        ...current,
        panes: current.panes.map((pane, index) => ({ ...pane, messages: [...pane.messages, turns[index]!.user, turns[index]!.reply] })),
      }));
      turns.forEach((turn, pane) => void answer(pane, [...turn.before, turn.user], turn.reply.id));
    },
    [answer],
  );

  const stop = useCallback(() => {
    for (const controller of controllers.current.values()) controller.abort();
  }, []);

  /** Replaces the pane's messages from message `id` on by a new answer to what came before. */
  const answerAgain = useCallback(
    (pane: number, id: string, messages: Message[]) => {
      const at = messages.findIndex((message) => message.id === id);
      if (at < 0) return;
      const history = messages.slice(0, messages[at]!.role === "assistant" ? at : at + 1);
      if (!history.some((message) => message.role === "user")) return;
      const reply: Message = { id: newId(), role: "assistant", content: "", state: "loading" };
      setState((current) => ({
        ...current,
        panes: current.panes.map((entry, index) => (index === pane ? { ...entry, messages: [...history, reply] } : entry)),
      }));
      void answer(pane, history, reply.id);
    },
    [answer],
  );

  /** Answers again from a message: an answer is replaced; after a user message, what followed is. */
  const regenerate = useCallback((pane: number, id: string) => answerAgain(pane, id, latest.current.panes[pane]!.messages), [answerAgain]);

  /** Changes a message's text; "save and send again" also answers the edited question anew. */
  const edit = useCallback(
    (pane: number, id: string, content: string, resend: boolean) => {
      const edited = latest.current.panes[pane]!.messages.map((message) => (message.id === id ? { ...message, content } : message));
      if (resend) return answerAgain(pane, id, edited);
      setState((current) => ({
        ...current,
        panes: current.panes.map((entry, index) => (index === pane ? { ...entry, messages: edited } : entry)),
      }));
    },
    [answerAgain],
  );

  const remove = useCallback((pane: number, id: string) => {
    controllers.current.get(id)?.abort();
    setState((current) => ({
      ...current,
      panes: current.panes.map((entry, index) =>
        index === pane ? { ...entry, messages: entry.messages.filter((message) => message.id !== id) } : entry,
      ),
    }));
  }, []);

  const clear = useCallback(() => {
    stop();
    controllers.current.clear();
    setState((current) => ({ ...current, panes: current.panes.map((pane) => ({ ...pane, messages: [] })) }));
  }, [stop]);

  const setModel = useCallback((pane: number, model: string) => {
    setState((current) => ({ ...current, panes: current.panes.map((entry, index) => (index === pane ? { ...entry, model } : entry)) }));
  }, []);

  /** Side by side: the second pane starts from the first one's conversation, with its own model. */
  const setCompare = useCallback((on: boolean, secondModel: string) => {
    setState((current) => {
      const first = current.panes[0]!;
      return {
        ...current,
        panes: on
          ? [
              first,
              {
                model: current.panes[1]?.model ?? secondModel,
                messages: first.messages.filter((message) => message.state !== "loading" && message.state !== "incomplete"),
              },
            ]
          : [first],
      };
    });
  }, []);

  const setParameters = useCallback(
    (change: Partial<Parameters>) => setState((current) => ({ ...current, parameters: { ...current.parameters, ...change } })),
    [],
  );
  const setSystem = useCallback((system: string) => setState((current) => ({ ...current, system })), []);
  const setGroup = useCallback((group: string) => setState((current) => ({ ...current, group })), []);

  return { state, busy, send, stop, regenerate, edit, remove, clear, setModel, setCompare, setParameters, setSystem, setGroup };
}
