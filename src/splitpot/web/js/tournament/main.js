// The tournament's lobby (/tournaments/{id}, + ?invite=CODE for a private one): its name,
// kind and status; the level, its blinds and the countdown to the next; the players left,
// the average stack, the prize pool and the prizes; the entrants and each table to watch;
// Register and Unregister, the host's Start for a sit-and-go; the results once it ended.
// Drawn again every few seconds while it runs. The room decides: a refusal shows in its words.

import { ApiError, identity, onIdentityChange, request, sentence } from "../api.js";
import { askForName } from "../signin.js";
import { element } from "../dom.js";
import { formatNumber, t, tn } from "../i18n.js";
import { drawEntrants, drawPayouts, drawResults, drawTables } from "./entrants.js";
import { drawFigures, drawStructure, drawTerms, factsLine } from "./figures.js";
import "../language-menu.js";

const RUNNING_MS = 3000; // how often a running tournament is drawn again
const WAITING_MS = 10_000; // and one that registers
const ENDED = ["finished", "cancelled"];

// The tournament's id from the address; a broken escape (%E0) names none the room has.
function tournamentFromPath() {
  try {
    return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
  } catch {
    return "";
  }
}

const tournamentId = tournamentFromPath();
const apiPath = `/api/tournaments/${encodeURIComponent(tournamentId)}`;
const invite = new URLSearchParams(location.search).get("invite"); // kept: a private one is seen with it
let lobby = null;
let refreshTimer = 0;
let sawRegistering = false; // this page saw it before its start: on the start, it takes the player to their table
let resultsDrawn = false;

const $ = (selector) => document.querySelector(selector);

/** A line about the page as a whole (not found, not signed in), or none. */
function note(text) {
  $("#t-note").textContent = text;
  $("#t-note").hidden = !text;
}

function showWho(found) {
  $("#sign-in").hidden = Boolean(found);
  $("#who").replaceChildren(found
    ? element("strong", "who-name", found.player.name)
    : element("span", "muted", t("Not signed in")));
}

/** The caller's entry, or null. */
function myEntry() {
  const me = identity()?.player.id;
  return lobby?.entrants.find((entrant) => String(entrant.player) === String(me)) || null;
}

function isHost() {
  const me = identity()?.player.id;
  return Boolean(me && lobby && String(lobby.host) === String(me));
}

/** The buttons the caller may use now; the room refuses the rest in its own words. */
function drawButtons() {
  const registering = lobby.status === "registering";
  const mine = myEntry();
  const full = lobby.entries >= (lobby.settings?.most_entrants ?? Infinity);
  const late = lobby.status === "running" && lobby.settings?.late_levels >= (lobby.level?.level ?? Infinity);
  $("#t-register").hidden = lobby.registered || full || !(registering || late);
  $("#t-unregister").hidden = !(lobby.registered && registering);
  $("#t-start").hidden = !(isHost() && registering && lobby.kind === "sit-and-go" && lobby.entries >= 2);
  const seat = $("#t-my-table");
  const playing = lobby.status === "running" && mine && !mine.out && mine.table;
  seat.hidden = !playing;
  if (playing) seat.href = `/tables/${encodeURIComponent(mine.table)}`;
  const csv = $("#t-results-csv");
  csv.href = invite ? `${apiPath}/results.csv?invite=${encodeURIComponent(invite)}` : `${apiPath}/results.csv`;
}

/** The caller's standing, in a line: registered, at a table, out in a place. */
function standing() {
  const mine = myEntry();
  if (!mine) return "";
  if (mine.place != null) {
    return mine.prize
      ? t("You finished in place {place} and won {prize}.", { place: formatNumber(mine.place), prize: formatNumber(mine.prize) })
      : t("You finished in place {place}.", { place: formatNumber(mine.place) });
  }
  if (lobby.status === "registering") return t("You are registered.");
  if (mine.table_number != null) return t("You play at table {number}, seat {seat}.", { number: mine.table_number, seat: mine.seat });
  return "";
}

async function drawResultsOnce() {
  if (resultsDrawn) return;
  const answer = await request("GET", `${apiPath}/results`, undefined, { invite });
  drawResults($("#t-result-list"), answer.results, identity()?.player.id);
  resultsDrawn = lobby.status === "finished";
}

function draw() {
  document.title = `${lobby.name} · splitpot`;
  $("#t-name").textContent = lobby.name;
  $("#t-facts").textContent = factsLine(lobby);
  $("#t-standing").textContent = standing();
  $("#t-standing").hidden = !standing();
  $("#t-hand-for-hand").hidden = !(lobby.hand_for_hand && lobby.status === "running");
  drawButtons();
  drawFigures($("#t-figures"), lobby);
  drawTerms($("#t-terms"), lobby);
  drawStructure($("#t-levels"), $("#t-levels-caption"), lobby);
  drawPayouts($("#t-payout-list"), lobby.prize_pool ? lobby.payouts : []);
  drawEntrants($("#t-entrant-list"), lobby.entrants, identity()?.player.id, ["registering", "cancelled"].includes(lobby.status));
  drawTables($("#t-table-list"), lobby.tables);
  $("#t-tables").hidden = lobby.status !== "running";
  $("#t-results").hidden = lobby.status !== "finished";
  document.body.dataset.status = lobby.status;
}

/** Loads the tournament as the room has it for the caller and draws the page. */
async function refresh() {
  clearTimeout(refreshTimer);
  try {
    lobby = await request("GET", apiPath, undefined, { invite });
    $("#t-error").textContent = "";
    note("");
    draw();
    if (lobby.status === "finished") await drawResultsOnce();
    if (lobby.status === "registering") sawRegistering = true;
    const mine = myEntry();
    if (sawRegistering && lobby.status === "running" && mine?.table && !mine.out) {
      sawRegistering = false;
      location.assign(`/tables/${encodeURIComponent(mine.table)}`); // the start: to the player's table
      return;
    }
    document.body.dataset.ready = "1";
  } catch (error) {
    document.body.dataset.ready = "1";
    if (error instanceof ApiError && error.code === "not_found") {
      note(t("There is no tournament here, or it is private: open it with the link its host shared."));
      return;
    }
    note(`${t("The tournament cannot be loaded.")} ${sentence(error.message)}`);
  }
  if (document.hidden || (lobby && ENDED.includes(lobby.status) && resultsDrawn)) return;
  const soon = lobby?.status === "running" || (lobby?.status === "registering" && lobby.registered); // a start to catch
  refreshTimer = setTimeout(refresh, soon ? RUNNING_MS : WAITING_MS);
}

/** Runs a command of the caller with its button waiting; a refusal shows at the top. */
async function command(button, path, body = undefined) {
  if (!identity() && !(await askForName())) return;
  const box = $("#t-error");
  box.textContent = "";
  button.disabled = true;
  try {
    await request("POST", `${apiPath}/${path}`, body);
  } catch (error) {
    box.textContent = sentence(error.message);
  } finally {
    button.disabled = false;
  }
  await refresh();
}

function wire() {
  $("#sign-in").addEventListener("click", () => askForName());
  $("#t-register").addEventListener("click", (event) => command(event.currentTarget, "register", invite ? { invite } : {}));
  $("#t-unregister").addEventListener("click", (event) => command(event.currentTarget, "unregister"));
  $("#t-start").addEventListener("click", (event) => {
    if (!confirm(tn("Start {name} now, with {count} player?", "Start {name} now, with {count} players?", lobby.entries, { name: lobby.name }))) return;
    command(event.currentTarget, "start");
  });
  onIdentityChange((found) => {
    showWho(found);
    refresh();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
}

wire();
showWho(identity());
refresh();
