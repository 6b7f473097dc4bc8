// The lobby's "Tournaments" section: the public tournaments (GET /api/tournaments), each a
// link to its lobby, and the private ones this browser made (with their invite); the form
// that makes a sit-and-go (bots for a practice alone) or a scheduled tournament with its
// main settings (POST /api/tournaments), then opens its lobby.

import { identity, request, sentence } from "../api.js";
import { askForName } from "../signin.js";
import { element } from "../dom.js";
import { formatDate, t, tn } from "../i18n.js";
import { structureName, variantName } from "../game-words.js";
import { readTournamentForm, showFormFor } from "./form.js";
import { chipsText, kindName, lobbyPath, statusName } from "./words.js";

const REFRESH_MS = 10_000;
const PRIVATE_KEY = "splitpot.private-tournaments";
const MOST_PRIVATE = 10;

const $ = (selector) => document.querySelector(selector);
let refreshTimer = 0;

function privateTournaments() {
  try {
    const saved = JSON.parse(localStorage.getItem(PRIVATE_KEY) || "[]");
    return Array.isArray(saved) ? saved.filter((entry) => entry && entry.id) : [];
  } catch {
    return [];
  }
}

function rememberPrivate(tournament, invite) {
  const kept = privateTournaments().filter((entry) => entry.id !== tournament.id);
  const saved = [{ id: tournament.id, name: tournament.name, invite }, ...kept].slice(0, MOST_PRIVATE);
  try {
    localStorage.setItem(PRIVATE_KEY, JSON.stringify(saved));
  } catch {
    // not remembered: its lobby's address still holds the invite
  }
}

function tournamentItem(summary) {
  const item = element("li");
  item.dataset.tournament = summary.id;
  const about = element("div", "grow");
  const link = element("a", "table-name", summary.name);
  link.href = lobbyPath(summary.id);
  const game = [kindName(summary.kind), variantName(summary.variant), structureName(summary.structure)];
  const when = summary.kind === "scheduled" && summary.start_at && summary.status === "registering"
    ? [t("starts {when}", { when: formatDate(summary.start_at) })]
    : [];
  about.append(link, element("span", "when", [...game, ...when].join(" · ")));
  const status = element("span", `badge status ${summary.status}`, statusName(summary.status));
  const entries = element("span", "badge entries", `${chipsText(summary.entries)}/${chipsText(summary.most_entrants)}`);
  entries.title = tn("{count} entry", "{count} entries", summary.entries);
  const cost = summary.buy_in || summary.fee
    ? t("Buy-in {amount}", { amount: summary.fee ? `${chipsText(summary.buy_in)}+${chipsText(summary.fee)}` : chipsText(summary.buy_in) })
    : t("Free");
  const registering = summary.status === "registering";
  const open = element("a", registering ? "button primary" : "button", registering ? t("Register") : t("Open"));
  open.href = link.href;
  open.setAttribute("aria-label", registering
    ? t("Register for {tournament}", { tournament: summary.name })
    : t("Open {tournament}", { tournament: summary.name }));
  item.append(about, status, entries, element("span", "badge", cost), open);
  return item;
}

function privateItem(saved) {
  const item = element("li");
  item.dataset.tournament = saved.id;
  const link = element("a", "table-name grow", saved.name);
  link.href = lobbyPath(saved.id, saved.invite);
  item.append(link, element("span", "badge", t("Private")));
  return item;
}

async function drawTournaments() {
  clearTimeout(refreshTimer);
  const list = $("#tournament-list");
  const status = $("#tournaments-status");
  try {
    const { tournaments } = await request("GET", "/api/tournaments");
    const shown = new Set(tournaments.map((summary) => summary.id));
    const mine = privateTournaments().filter((saved) => !shown.has(saved.id));
    list.replaceChildren(...tournaments.map(tournamentItem), ...mine.map(privateItem));
    status.textContent = tournaments.length || mine.length ? "" : t("No tournament is registering or running: make one.");
  } catch (error) {
    status.textContent = `${t("The tournaments cannot be loaded.")} ${sentence(error.message)}`;
  }
  if (!document.hidden) refreshTimer = setTimeout(drawTournaments, REFRESH_MS);
}

async function createTournament(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const box = form.querySelector(".error-box");
  box.textContent = "";
  const settings = readTournamentForm(form);
  if (settings.problem) {
    box.textContent = settings.problem;
    return;
  }
  const submit = form.querySelector("button[type=submit]");
  submit.disabled = true;
  try {
    const { tournament, invite } = await request("POST", "/api/tournaments", settings.body);
    if (invite) rememberPrivate(tournament, invite);
    location.assign(lobbyPath(tournament.id, invite));
  } catch (refusal) {
    box.textContent = sentence(refusal.message);
  } finally {
    submit.disabled = false;
  }
}

/** Wires the section and draws the tournaments (again every few seconds). */
export function startTournaments() {
  const dialog = $("#tournament-dialog");
  const form = $("#tournament-create");
  $("#new-tournament").addEventListener("click", async () => {
    const found = identity() || (await askForName());
    if (!found) return;
    form.querySelector(".error-box").textContent = "";
    if (!form.elements.name.value) form.elements.name.value = t("{name}'s tournament", { name: found.player.name }).slice(0, 40);
    showFormFor(form);
    dialog.showModal();
    form.elements.name.focus();
  });
  for (const close of dialog.querySelectorAll("[data-close]")) close.addEventListener("click", () => dialog.close());
  form.addEventListener("change", () => showFormFor(form));
  form.addEventListener("submit", createTournament);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) drawTournaments();
  });
  drawTournaments();
}
