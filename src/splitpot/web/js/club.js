// The club page (/clubs/{id}, + ?invite=CODE to join with the invite link): the club's name
// and the caller's role; to its members its tables, its schedule, its members and its
// ledger with the settle-up; to its managers the requests, the roles, the invite link,
// opening tables, the weekly games and the log. Each control shows only to a role that may
// use it, and the room decides: a refusal shows in its own words.

import { ApiError, identity, onIdentityChange, request, sentence } from "./api.js";
import { askForName } from "./signin.js";
import { element } from "./dom.js";
import { t, tn } from "./i18n.js";
import { copyText } from "./copy.js";
import { act, afterEachCommand, refusalBox } from "./club/act.js";
import { drawLedger, drawSpans } from "./club/ledger.js";
import { drawLog } from "./club/log.js";
import { drawInvite, drawMembers, newInvite } from "./club/members.js";
import { isManager, isMember, isOwner, membershipName, roleName } from "./club/roles.js";
import { drawSchedule, wireAddGame } from "./club/schedule.js";
import { fillClubSettings, wireClubSettings } from "./club/settings.js";
import { drawTables, wireOpenTable } from "./club/tables.js";
import "./language-menu.js";

const REFRESH_MS = 10_000;
// The club's id from the address; a broken escape (%E0) names no club the room has.
function clubFromPath() {
  try {
    return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  } catch {
    return "";
  }
}

const clubId = clubFromPath();
const clubPath = `/api/clubs/${encodeURIComponent(clubId)}`;
let invite = new URLSearchParams(location.search).get("invite");
let club = null;
let refusedToJoin = ""; // the room's refusal of the invite link, kept in sight
let refreshTimer = 0;

const $ = (selector) => document.querySelector(selector);
const pageError = () => $("#club-error");

/** A line about the page as a whole (not a member; not loaded), or none. */
function note(text) {
  $("#club-note").textContent = text;
  $("#club-note").hidden = !text;
}

function showWho(found) {
  const who = $("#who");
  $("#sign-in").hidden = Boolean(found);
  who.replaceChildren(found
    ? element("strong", "who-name", found.player.name)
    : element("span", "muted", t("Not signed in")));
}

/** The club's head: its name, the caller's role, how one joins and how many are in. */
function drawHead() {
  document.title = `${club.name} · splitpot`;
  $("#club-name").textContent = club.name;
  const parts = [
    club.role ? t("You: {role}", { role: roleName(club.role) }) : t("You are not a member"),
    tn("{count} member", "{count} members", club.members),
    t("Owner: {name}", { name: club.owner.name }),
    membershipName(club.membership),
  ];
  $("#club-role").textContent = parts.join(" · ");
  const join = $("#club-join");
  join.hidden = club.role !== null || club.membership === "closed";
  join.textContent = club.membership === "open" ? t("Join the club") : t("Ask to join");
  const leave = $("#club-leave");
  leave.hidden = !club.role || club.role === "owner";
  leave.textContent = club.role === "asked" ? t("Take back my request") : t("Leave the club");
}

/** The sections a member sees, hidden to anyone else; a manager's controls to a manager. */
function showSections() {
  const member = isMember(club.role);
  const manager = isManager(club.role);
  for (const id of ["#club-tables", "#club-schedule", "#club-members", "#club-ledger"]) $(id).hidden = !member;
  $("#club-log").hidden = !manager;
  $("#club-open-table").hidden = !manager;
  $("#club-add-game").hidden = !manager;
  $("#club-settings").hidden = !isOwner(club.role);
  if (isOwner(club.role)) fillClubSettings($("#club-settings-form"), club);
  if (member) note("");
  else if (club.role === "asked") note(t("You asked to join: a manager of the club will answer."));
  else note(refusedToJoin || t("Join the club to see its tables, its schedule and its ledger."));
}

async function drawMemberParts() {
  const manager = isManager(club.role);
  const [lobby, members] = await Promise.all([request("GET", `${clubPath}/lobby`), request("GET", `${clubPath}/members`)]);
  drawTables($("#club-table-list"), lobby.tables);
  drawSchedule($("#club-game-list"), lobby.games, { manager, clubId: () => clubId, box: refusalBox($("#club-schedule")) });
  const me = identity()?.player.id;
  drawMembers(
    { requests: $("#club-request-list"), list: $("#club-member-list"), requestsBox: $("#club-requests") },
    members.members,
    { role: club.role, me, clubPath, box: refusalBox($("#club-members")) },
  );
  drawInvite({ holder: $("#club-invite"), input: $("#club-invite-link"), copy: $("#club-copy-invite"), fresh: $("#club-new-invite") }, clubId, club.role);
  const played = [
    ...lobby.tables.map((table) => ({ id: table.id, name: table.name })),
    ...lobby.games.filter((game) => game.table).map((game) => ({ id: game.table, name: game.settings?.name || game.table })),
  ];
  drawSpans($("#club-settle-span"), played.filter((table, at) => played.findIndex((other) => other.id === table.id) === at));
  await Promise.all([
    drawLedger({ results: $("#club-results"), payments: $("#club-payments"), span: $("#club-settle-span") }, clubId),
    manager ? drawLog($("#club-log-list"), clubId) : null,
  ]);
}

/** Joins with the invite code of the page's address, once, then forgets it. */
async function joinWithInvite() {
  const code = invite;
  invite = null;
  const url = new URL(location.href);
  url.searchParams.delete("invite");
  history.replaceState(null, "", url);
  if (isMember(club.role)) return;
  try {
    club = (await request("POST", `${clubPath}/join`, { code })).club;
  } catch (error) {
    refusedToJoin = sentence(error.message);
  }
}

/** Loads the club as the room has it for the caller and draws the page. */
async function refresh() {
  clearTimeout(refreshTimer);
  if (!identity()) {
    note(t("Sign in to see the club."));
    return;
  }
  try {
    club = await request("GET", clubPath);
    if (invite) await joinWithInvite();
    drawHead();
    showSections();
    if (isMember(club.role)) await drawMemberParts();
  } catch (error) {
    note(error instanceof ApiError && error.code === "unknown_club"
      ? t("There is no club here: check the link you were given.")
      : `${t("The club cannot be loaded.")} ${sentence(error.message)}`);
  }
  if (!document.hidden) refreshTimer = setTimeout(refresh, REFRESH_MS);
}

function wire() {
  afterEachCommand(refresh);
  $("#sign-in").addEventListener("click", () => askForName());
  $("#club-join").addEventListener("click", (event) => act(event.currentTarget, pageError(), () => request("POST", `${clubPath}/join`, {})));
  $("#club-leave").addEventListener("click", (event) => {
    const asked = club?.role === "asked";
    if (!asked && !confirm(t("Leave the club {name}?", { name: club.name }))) return;
    act(event.currentTarget, pageError(), () => request("POST", `${clubPath}/leave`));
  });
  wireOpenTable({
    button: $("#club-open-table"),
    dialog: $("#club-table-dialog"),
    clubId: () => clubId,
    suggestedName: () => t("{club} table", { club: club?.name || "" }),
  });
  wireAddGame({ button: $("#club-add-game"), dialog: $("#club-game-dialog"), clubId: () => clubId });
  wireClubSettings($("#club-settings-form"), () => clubId);
  $("#club-copy-invite").addEventListener("click", () => copyText($("#club-invite-link"), $("#club-copy-status")));
  $("#club-new-invite").addEventListener("click", (event) => newInvite(event.currentTarget, refusalBox($("#club-members")), clubId));
  $("#club-settle-span").addEventListener("change", () => {
    drawLedger({ results: $("#club-results"), payments: $("#club-payments"), span: $("#club-settle-span") }, clubId)
      .catch((error) => { refusalBox($("#club-ledger")).textContent = sentence(error.message); });
  });
  onIdentityChange((found) => {
    showWho(found);
    refresh();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
}

async function start() {
  wire();
  showWho(identity());
  if (!identity() && await askForName()) return; // signed in: the change draws the club
  refresh();
}

start();
