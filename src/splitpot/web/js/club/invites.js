// A club's invite link (/clubs/{id}?invite=CODE). The room keeps only a hash of the code,
// so the page remembers in this browser the code it was given (when the club was made or
// a manager made a new one) to show the link again.

const STORAGE_KEY = "splitpot.club-invites";

function remembered() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || "{}");
    return saved && typeof saved === "object" ? saved : {};
  } catch {
    return {};
  }
}

/** Remembers the club's current invite code. */
export function rememberInvite(clubId, code) {
  localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...remembered(), [clubId]: code }));
}

/** The club's invite code this browser was given, or null. */
export function rememberedInvite(clubId) {
  const code = remembered()[clubId];
  return typeof code === "string" ? code : null;
}

/** The link that joins the club with `code`. */
export function inviteLink(clubId, code) {
  return new URL(`/clubs/${encodeURIComponent(clubId)}?invite=${encodeURIComponent(code)}`, location.origin).href;
}

/** The club's id and code in a pasted invite link (or a club's id alone), or null. */
export function readInviteLink(text) {
  const bare = String(text).trim();
  if (/^[a-z0-9]{8}$/.test(bare)) return { clubId: bare, code: null }; // a club's id: ask to join
  let url;
  try {
    url = new URL(bare, location.origin);
  } catch {
    return null;
  }
  const found = /^\/clubs\/([^/]+)\/?$/.exec(url.pathname);
  if (!found) return null;
  return { clubId: decodeURIComponent(found[1]), code: url.searchParams.get("invite") };
}
