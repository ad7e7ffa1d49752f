// The one API: the desktop shell serves Deskmate's REST API on a loopback port and hands
// its address and this launch's token to the webview as `window.__DESKMATE__`. Pushes
// (chat tokens, autotest checks, prompts) are server-sent events read from fetch.
import type { components } from "./api-types";

export interface Connection {
  base: string;
  token: string;
  /** The global push-to-talk shortcut (desktop shell only). */
  pushToTalk?: string;
  /** The system locale as the shell reads it (`zh-CN`); absent: ask the webview. */
  locale?: string | null;
}

declare global {
  interface Window {
    __DESKMATE__?: Connection;
  }
}

/** Where the API is: the shell's value, or `?base=…&token=…` when served by `vite`. */
export function connection(): Connection {
  if (window.__DESKMATE__) return window.__DESKMATE__;
  const query = new URLSearchParams(window.location.search);
  return {
    base: query.get("base") ?? "http://127.0.0.1:8765/api/v1",
    token: query.get("token") ?? "",
  };
}

/** A field of a 422 answer. */
export type FieldError = components["schemas"]["FieldError"];

/** An API error: the status and the JSON body's `detail` and `errors`. */
export class ApiError extends Error {
  constructor(
    public status: number,
    public detail: string,
    public errors: FieldError[] = [],
  ) {
    super(detail);
  }
}

function headers(json: boolean, accept = "application/json"): HeadersInit {
  const h: Record<string, string> = {
    Authorization: `Bearer ${connection().token}`,
    Accept: accept,
  };
  if (json) h["Content-Type"] = "application/json";
  return h;
}

async function failure(response: Response): Promise<ApiError> {
  let detail = `${response.status} ${response.statusText}`;
  let errors: FieldError[] = [];
  try {
    const body = await response.json();
    if (typeof body.detail === "string") detail = body.detail;
    if (Array.isArray(body.errors)) errors = body.errors;
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, detail, errors);
}

/** One JSON request. */
export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(connection().base + path, {
      method,
      headers: headers(body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, `Deskmate's service is not reachable: ${String(e)}`);
  }
  if (!response.ok) throw await failure(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** One request whose answer is text (an XML export). */
export async function apiText(method: string, path: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(connection().base + path, { method, headers: headers(false) });
  } catch (e) {
    throw new ApiError(0, `Deskmate's service is not reachable: ${String(e)}`);
  }
  if (!response.ok) throw await failure(response);
  return response.text();
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Splits server-sent event text into events; returns the events and the unfinished rest. */
export function parseSse(buffer: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const normalized = buffer.replace(/\r\n/g, "\n");
  const blocks = normalized.split("\n\n");
  const rest = blocks.pop() ?? "";
  for (const block of blocks) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    if (data.length === 0) continue;
    const text = data.join("\n");
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // plain text data
    }
    events.push({ event, data: parsed });
  }
  return { events, rest };
}

/** A request answered with `text/event-stream`: calls `onEvent` for each event. */
export async function stream(
  method: string,
  path: string,
  body: unknown,
  onEvent: (event: SseEvent) => void,
  signal?: AbortSignal,
  onOpen?: () => void,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(connection().base + path, {
      method,
      headers: headers(body !== undefined, "text/event-stream"),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (signal?.aborted) return;
    throw new ApiError(0, `Deskmate's service is not reachable: ${String(e)}`);
  }
  if (!response.ok || !response.body) throw await failure(response);
  onOpen?.();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (e) {
      if (signal?.aborted) return;
      throw e;
    }
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    const { events, rest } = parseSse(buffer);
    buffer = rest;
    events.forEach(onEvent);
  }
  const { events } = parseSse(buffer + "\n\n");
  events.forEach(onEvent);
}

/** The API's types, generated from its OpenAPI document (src/api-types.ts). */
export type Schemas = components["schemas"];

/** A tool result as every front end gets it. */
export type ToolResult = Schemas["ToolResult"];

export type Repair = Schemas["Repair"];

export type Prompt = Schemas["Prompt"];
