// The room's HTTP API for the pages: the stored identity (guest or account) and JSON
// requests that carry its token (and the page's language, for the room's words) and turn the
// room's {"error": {code, message}} into ApiError.

import { lang, t } from "./i18n.js";

const STORAGE_KEY = "splitpot.identity";
const CHANGED = "splitpot:identity";

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status;
  }
}

/** A message of the room as a sentence to show: a capital first, a full stop last. */
export function sentence(text) {
  const trimmed = String(text).trim();
  if (!trimmed) return trimmed;
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…。！？]$/.test(capital) ? capital : `${capital}${lang === "ja" ? "。" : "."}`;
}

/** The signed-in player, {player: {id, name}, token}, or null. */
export function identity() {
  let stored;
  try {
    stored = JSON.parse(localStorage.getItem(STORAGE_KEY) || "null");
  } catch {
    return null;
  }
  if (!stored || typeof stored.token !== "string" || !stored.player) return null;
  return stored;
}

function store(found) {
  if (found) localStorage.setItem(STORAGE_KEY, JSON.stringify(found));
  else localStorage.removeItem(STORAGE_KEY);
  window.dispatchEvent(new CustomEvent(CHANGED, { detail: found }));
  return found;
}

/** Calls back with the new identity (or null) whenever this page signs in or out. */
export function onIdentityChange(callback) {
  const listener = (event) => callback(event.detail);
  window.addEventListener(CHANGED, listener);
  // another tab signing in or out
  window.addEventListener("storage", (event) => {
    if (event.key === STORAGE_KEY) callback(identity());
  });
  return () => window.removeEventListener(CHANGED, listener);
}

/** Log out: ends the session at the room (best effort) and forgets it here. */
export async function forget() {
  const found = identity();
  store(null);
  if (!found) return;
  try {
    await send("DELETE", "/api/sessions", undefined, found.token);
  } catch {
    // the token is forgotten here either way
  }
}

/** The path with ?invite=TOKEN added when an invite is given. */
export function withInvite(path, invite) {
  if (!invite) return path;
  const joiner = path.includes("?") ? "&" : "?";
  return `${path}${joiner}invite=${encodeURIComponent(invite)}`;
}

async function send(method, path, body, token) {
  const headers = { Accept: "application/json", "Accept-Language": lang };
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("network", t("The room cannot be reached: check your connection."), 0);
  }
  if (response.status === 204) return null;
  const type = response.headers.get("content-type") || "";
  const parsed = type.includes("application/json")
    ? await response.json().catch(() => null)
    : await response.text();
  if (response.ok) return parsed;
  const error = parsed && typeof parsed === "object" ? parsed.error : null;
  throw new ApiError(
    error?.code || "server_error",
    error?.message || t("The room answered {status} {reason}", { status: response.status, reason: response.statusText }).trim(),
    response.status,
  );
}

/**
 * A request to the room with the signed-in player's token. Resolves to the parsed JSON,
 * the text for text/plain, null for 204; rejects with ApiError. A token the room no longer
 * knows is forgotten (the page then asks for a name again); a GET is retried without it.
 */
export async function request(method, path, body = undefined, { invite } = {}) {
  const url = withInvite(path, invite);
  const found = identity();
  try {
    return await send(method, url, body, found?.token);
  } catch (error) {
    if (!(found && error instanceof ApiError && error.status === 401)) throw error;
    if (identity()?.token === found.token) store(null);
    if (method.toUpperCase() !== "GET") throw error;
    return send(method, url, body, undefined);
  }
}

async function enter(path, body) {
  return store(await send("POST", path, body, undefined));
}

/** Plays as a guest under a name (names may be shared by guests). */
export async function signInAsGuest(name) {
  return enter("/api/guests", { name });
}

/** Creates an account (the name is then reserved) and signs in. */
export async function signUp(name, password) {
  return enter("/api/accounts", { name, password });
}

/** Logs in to an account. */
export async function logIn(name, password) {
  return enter("/api/sessions", { name, password });
}
