// The lobby page (/): who is signed in, the public tables with their filters, the host's
// private tables, the form that creates a table with every setting, the tournaments
// (js/tournament/lobby-section.js) and the clubs (js/club/lobby-section.js).

import { ApiError, forget, identity, onIdentityChange, request, sentence } from "./api.js";
import { askForName } from "./signin.js";
import { element } from "./dom.js";
import { formatNumber, t, tn } from "./i18n.js";
import { stakesText, structureName, variantName, variantTitle } from "./game-words.js";
import { optionsOn, readOptions } from "./option-fields.js";
import { optionWords } from "./option-words.js";
import { copyText } from "./copy.js";
import { startClubs } from "./club/lobby-section.js";
import { startTournaments } from "./tournament/lobby-section.js";
import "./language-menu.js";

const REFRESH_MS = 5000;
const FILTERS_KEY = "splitpot.lobby.filters";
const PRIVATE_KEY = "splitpot.private-tables";
const MOST_PRIVATE = 10; // the room lets a host keep 10 tables

const VARIANT_HINTS = {
  o8: t("Four cards. The best high and the best low of eight or better split each pot."),
  omaha: t("Four cards. The best high hand takes the whole pot."),
  bigo: t("Five cards, use exactly two. High and low (eight or better) split. At most 8 seats."),
  "o-hilo-noq": t("Four cards. High and the lowest hand split every pot: there is always a low."),
};
const MOST_SEATS = { bigo: 8 }; // five hole cards each: one deck deals 8 players at most

// A setting the room names in a refusal, and how it names it ("minimum buy-in", "bots").
const SETTING_WORDS = [
  ["rake_percent", /rake_percent/i],
  ["rake_cap", /rake_cap/i],
  ["bomb_every", /bomb_every/i],
  ["bomb_pot", /bomb_pot|bomb/i],
  ["double_board", /double_board|double board/i],
  ["kill_size", /kill_size|kill size/i],
  ["kill", /\bkill\b/i],
  ["run_it_twice", /run_it_twice|run it twice/i],
  ["rabbit_hunt", /rabbit_hunt|rabbit/i],
  ["straddle", /\bstraddle\b/i],
  ["ante", /\bantes?\b/i],
  ["min_buy_in", /min_buy_in|minimum buy-in/i],
  ["max_buy_in", /max_buy_in|maximum buy-in|maximum/i],
  ["small_blind", /small_blind|small blind/i],
  ["big_blind", /big_blind|big blind/i],
  ["time_bank_seconds", /time_bank_seconds|time bank/i],
  ["action_seconds", /action_seconds/i],
  ["bots", /\bbots?\b/i],
  ["seats", /\bseats?\b/i],
  ["variant", /\bvariant\b/i],
  ["structure", /\bstructure\b/i],
  ["private", /\bprivate\b/i],
  ["audit", /\baudit\b/i],
  ["name", /\bname\b/i],
];
// the settings' names as the form's labels say them, for the room's messages
const SETTING_LABELS = {
  small_blind: t("small blind"),
  big_blind: t("big blind"),
  min_buy_in: t("minimum buy-in"),
  max_buy_in: t("maximum buy-in"),
  action_seconds: t("seconds to act"),
  time_bank_seconds: t("time bank"),
};
const NUMBER_SETTINGS = [
  "small_blind", "big_blind", "min_buy_in", "max_buy_in",
  "action_seconds", "time_bank_seconds", "bots",
];
const OPTIONAL_SETTINGS = new Set(["min_buy_in", "max_buy_in"]);

const $ = (selector, root = document) => root.querySelector(selector);

const chips = { format: formatNumber };

/* ---------- who is signed in ---------- */

async function showWho(found) {
  const who = $("#who");
  const balance = $("#balance");
  who.replaceChildren();
  $("#sign-in").hidden = Boolean(found);
  $("#sign-out").hidden = !found;
  balance.hidden = true;
  if (!found) {
    who.append(element("span", "muted", t("Not signed in")));
    return;
  }
  who.append(element("span", "who-label", `${t("Playing as")} `), element("strong", "who-name", found.player.name));
  try {
    const ledger = await request("GET", "/api/me/ledger");
    if (identity()?.token !== found.token) return;
    balance.textContent = t("Balance {amount}", { amount: chips.format(ledger.balance) });
    balance.classList.toggle("negative", ledger.balance < 0);
    balance.title = t("Your chips across tables: buy-ins take from it, cash-outs add to it");
    balance.hidden = false;
  } catch {
    // the balance is a nicety: the name alone is enough
  }
}

/* ---------- the table list ---------- */

let tables = [];
let loaded = false;
let refreshTimer = 0;

function filters() {
  const form = $("#filters");
  return {
    variant: form.elements["filter-variant"].value,
    structure: form.elements["filter-structure"].value,
    free: form.elements["filter-free"].checked,
  };
}

function restoreFilters() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(FILTERS_KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  const form = $("#filters");
  for (const [name, key] of [["filter-variant", "variant"], ["filter-structure", "structure"]]) {
    const select = form.elements[name];
    if ([...select.options].some((option) => option.value === saved[key])) select.value = saved[key];
  }
  form.elements["filter-free"].checked = Boolean(saved.free);
}

function matches(table, wanted) {
  return (!wanted.variant || table.variant === wanted.variant)
    && (!wanted.structure || table.structure === wanted.structure)
    && (!wanted.free || table.players < table.seats);
}

function cell(label, className = "") {
  const td = element("td", className);
  td.dataset.label = label;
  return td;
}

function seatDots(taken, seats) {
  const dots = element("span", "seat-dots");
  dots.setAttribute("aria-hidden", "true");
  for (let seat = 0; seat < seats; seat += 1) {
    dots.append(element("span", seat < taken ? "dot taken" : "dot"));
  }
  return dots;
}

function tableRow(table) {
  const row = element("tr");
  row.dataset.table = table.id;
  if (table.players >= table.seats) row.classList.add("full");

  const name = cell(t("Table"), "name-cell");
  const title = element("a", "table-name", table.name);
  title.href = `/tables/${encodeURIComponent(table.id)}`;
  title.tabIndex = -1; // the row's "Open" link is the one keyboard stop
  name.append(title);
  const badges = element("span", "badges");
  if (table.paused) badges.append(element("span", "badge", t("Paused")));
  if (table.audit) {
    const audit = element("span", "badge audit", t("Audited"));
    audit.title = t("Every salt of the session's hands is published when it ends");
    badges.append(audit);
  }
  if (table.approval) {
    const approval = element("span", "badge approval", t("By approval"));
    approval.title = t("A player asks for a seat and the host approves it");
    badges.append(approval);
  }
  if (table.waiting_list) {
    badges.append(element("span", "badge waiting", tn("{count} waiting", "{count} waiting", table.waiting_list)));
  }
  if (table.bots) badges.append(element("span", "badge", tn("{count} bot", "{count} bots", table.bots)));
  badges.append(element("span", "badge clock", t("{seconds} s to act", { seconds: table.action_seconds })));
  for (const words of optionWords(table)) badges.append(element("span", "badge option", words));
  name.append(badges);

  const game = cell(t("Game"), "game");
  game.textContent = variantName(table.variant, table.variant_name);
  game.title = variantTitle(table.variant, table.variant_name);

  const structure = cell(t("Betting"), "structure");
  structure.textContent = structureName(table.structure);

  const stakes = cell(t("Stakes"), "num stakes");
  stakes.append(
    element("span", "stakes-value", stakesText(table)),
    element("span", "sub", t("buy-in {least}–{most}", { least: chips.format(table.min_buy_in), most: chips.format(table.max_buy_in) })),
  );

  const seats = cell(t("Seats"), "num seats");
  const free = table.seats - table.players;
  seats.append(element("span", "seats-value", `${table.players}/${table.seats}`), seatDots(table.players, table.seats));
  seats.title = free === 0 ? t("Every seat is taken") : tn("{count} free seat", "{count} free seats", free);

  const pot = cell(t("Avg pot"), "num");
  pot.textContent = table.average_pot ? chips.format(table.average_pot) : "–";
  const pace = cell(t("Hands/h"), "num");
  pace.textContent = table.hands_per_hour ? chips.format(table.hands_per_hour) : "–";
  const waiting = cell(t("Waiting"), "num");
  waiting.textContent = String(table.waiting);

  const open = cell("", "open-cell");
  const link = element("a", "button open", t("Open"));
  link.href = title.href;
  link.setAttribute("aria-label", free > 0 ? t("Open {table}", { table: table.name }) : t("Open {table} (full: watch)", { table: table.name }));
  if (free > 0) link.classList.add("primary");
  open.append(link);

  row.append(name, game, structure, stakes, seats, pot, pace, waiting, open);
  return row;
}

function showEmpty(title, text, action, onAction) {
  const empty = $("#tables-empty");
  $(".empty-title", empty).textContent = title;
  $(".empty-text", empty).textContent = text;
  const button = $(".empty-action", empty);
  button.textContent = action;
  button.onclick = onAction;
  empty.hidden = false;
}

function renderTables() {
  const list = $("#tables");
  const rows = $("#table-rows");
  const wanted = filters();
  const shown = tables.filter((table) => matches(table, wanted));
  rows.replaceChildren(...shown.map(tableRow));
  list.setAttribute("aria-busy", String(!loaded));
  list.classList.toggle("is-empty", shown.length === 0);
  $("#tables-empty").hidden = true;
  if (!loaded) return;
  const freeSeats = tables.filter((table) => table.players < table.seats).length;
  const parts = [
    tn("{count} public table", "{count} public tables", tables.length),
    tn("{count} with a free seat", "{count} with a free seat", freeSeats),
  ];
  if (shown.length < tables.length) parts.push(tn("{count} shown", "{count} shown", shown.length));
  $("#tables-status").textContent = tables.length ? parts.join(" · ") : t("No public tables yet");
  if (tables.length === 0) {
    showEmpty(t("No public tables yet"), t("Start one: invite friends or fill the seats with bots."), t("New table"), openCreate);
  } else if (shown.length === 0) {
    showEmpty(t("No table matches these filters"), t("Try another game or betting."), t("Show every table"), clearFilters);
  }
}

function clearFilters() {
  $("#filters").reset();
  saveFilters();
  renderTables();
}

function saveFilters() {
  localStorage.setItem(FILTERS_KEY, JSON.stringify(filters()));
}

async function loadTables() {
  clearTimeout(refreshTimer);
  try {
    const answer = await request("GET", "/api/tables");
    tables = answer.tables;
    loaded = true;
    $("#lobby-error").textContent = "";
  } catch (error) {
    $("#lobby-error").textContent = [
      t("The tables cannot be loaded."),
      sentence(error.message),
      tn("Trying again every {count} second…", "Trying again every {count} seconds…", REFRESH_MS / 1000),
    ].join(" ");
    if (!loaded) $("#tables-status").textContent = t("The tables could not be loaded");
  }
  renderTables();
  if (!document.hidden) refreshTimer = setTimeout(loadTables, REFRESH_MS);
}

/* ---------- the host's private tables (kept in this browser) ---------- */

function privateTables() {
  try {
    const saved = JSON.parse(localStorage.getItem(PRIVATE_KEY) || "[]");
    return Array.isArray(saved) ? saved : [];
  } catch {
    return [];
  }
}

function savePrivateTables(saved) {
  localStorage.setItem(PRIVATE_KEY, JSON.stringify(saved.slice(0, MOST_PRIVATE)));
}

function inviteLink(saved) {
  return new URL(`/tables/${encodeURIComponent(saved.id)}?invite=${encodeURIComponent(saved.invite)}`, location.origin).href;
}

function privateItem(saved, summary) {
  const item = element("li", "private-item");
  const head = element("div", "private-head");
  const link = element("a", "table-name", saved.name);
  link.href = inviteLink(saved);
  head.append(link);
  if (summary) {
    head.append(element("span", "badge", `${variantName(summary.variant, summary.variant_name)} · ${stakesText(summary)} · ${summary.players}/${summary.seats}`));
  }
  const row = element("div", "invite-row");
  const label = element("label", "visually-hidden", t("Invite link for {table}", { table: saved.name }));
  const input = element("input", "invite-input");
  input.type = "text";
  input.readOnly = true;
  input.value = inviteLink(saved);
  input.id = `invite-${saved.id}`;
  label.htmlFor = input.id;
  const status = element("span", "copy-status");
  status.setAttribute("aria-live", "polite");
  const copy = element("button", "", t("Copy link"));
  copy.type = "button";
  copy.addEventListener("click", () => copyText(input, status));
  row.append(label, input, copy, status);
  item.append(head, row);
  return item;
}

async function renderPrivateTables() {
  const saved = privateTables();
  const section = $("#my-private");
  const kept = [];
  const items = [];
  for (const entry of saved) {
    let summary = null;
    try {
      summary = await request("GET", `/api/tables/${encodeURIComponent(entry.id)}`, undefined, { invite: entry.invite });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) continue; // gone
    }
    kept.push(entry);
    items.push(privateItem(entry, summary));
  }
  if (kept.length !== saved.length) savePrivateTables(kept);
  $("#my-private-list").replaceChildren(...items);
  section.hidden = items.length === 0;
}

/* ---------- creating a table ---------- */

const createDialog = () => $("#create-dialog");
const createForm = () => $("#create");

function defaultBuyIns(structure, bigBlind) {
  // RULES.md 6: limit 10 to 100 small bets; pot and no limit 40 to 100 big blinds; a
  // mixed game's limit rounds bet 2 big blinds (so 20 to 200 big blinds)
  if (structure === "limit") return [10 * bigBlind, 100 * bigBlind];
  if (structure === "mixed") return [20 * bigBlind, 200 * bigBlind];
  return [40 * bigBlind, 100 * bigBlind];
}

function structureHint(structure, small, big) {
  const blinds = `${chips.format(small)}/${chips.format(big)}`;
  if (structure === "limit") {
    return t("Blinds {blinds}: bets and raises of {small_bet}, then {big_bet} on the turn and river.", { blinds, small_bet: chips.format(big), big_bet: chips.format(2 * big) });
  }
  if (structure === "no-limit") return t("Blinds {blinds}: bet any amount, up to your whole stack.", { blinds });
  if (structure === "mixed") {
    return t("Pot limit with blinds {blinds}, then fixed limit {bets} (blinds {limit_blinds}), changing each time the button goes round.", {
      blinds,
      bets: `${chips.format(2 * big)}/${chips.format(4 * big)}`,
      limit_blinds: `${chips.format(big)}/${chips.format(2 * big)}`,
    });
  }
  return t("Blinds {blinds}: bet up to the size of the pot.", { blinds });
}

function wholeNumber(input) {
  const text = input.value.trim();
  if (input.validity.badInput || (text && !/^\d+$/.test(text))) return NaN;
  return text === "" ? null : Number(text);
}

function updateCreateHints() {
  const form = createForm();
  const variant = form.elements.variant.value;
  const structure = form.elements.structure.value;
  const small = wholeNumber(form.elements.small_blind) || 1;
  const big = wholeNumber(form.elements.big_blind) || 2;
  $("#create-variant-hint").textContent = VARIANT_HINTS[variant];
  $("#create-structure-hint").textContent = structureHint(structure, small, big);

  const most = MOST_SEATS[variant] || 10;
  const seats = form.elements.seats;
  for (const option of seats.options) option.disabled = Number(option.value) > most;
  if (Number(seats.value) > most) seats.value = String(most);
  const bots = form.elements.bots;
  bots.max = String(Number(seats.value) - 1);

  const [low, high] = defaultBuyIns(structure, big);
  form.elements.min_buy_in.placeholder = t("default {amount}", { amount: chips.format(low) });
  form.elements.max_buy_in.placeholder = t("default {amount}", { amount: chips.format(high) });
  $("#stakes-summary").textContent = t("Usual buy-in here: {least} to {most} chips.", { least: chips.format(low), most: chips.format(high) });
}

function clearCreateErrors() {
  const form = createForm();
  for (const box of form.querySelectorAll(".field-error, #create-error")) box.textContent = "";
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
}

function showCreateError(setting, message) {
  const form = createForm();
  const box = setting ? $(`#create-${setting}-error`) : null;
  if (!box) {
    $("#create-error").textContent = message;
    return null;
  }
  const input = form.elements[setting];
  input.setAttribute("aria-invalid", "true");
  box.textContent = message;
  return input;
}

/** The room's message with each setting named as its label is ("small_blind" -> "small blind"). */
function inWords(message) {
  return message.replace(/\b(small_blind|big_blind|min_buy_in|max_buy_in|action_seconds|time_bank_seconds)\b/g, (name) => SETTING_LABELS[name]);
}

/** Focuses the field in error and scrolls its message into sight (above the sticky buttons). */
function bringToSight(input) {
  const box = input ? $(`#create-${input.name}-error`) : $("#create-error");
  const folded = input?.closest("details"); // the home-game options, folded away
  if (folded) folded.open = true;
  input?.focus({ preventScroll: true });
  box.scrollIntoView({ block: "center" });
}

/** The setting a refusal of the room is about: the one it names first. */
function settingOf(message) {
  let found = null;
  let first = Infinity;
  for (const [setting, words] of SETTING_WORDS) {
    const at = message.search(words);
    if (at >= 0 && at < first) {
      first = at;
      found = setting;
    }
  }
  return found;
}

/** The settings from the form, or null after showing what is wrong. */
function readSettings() {
  const form = createForm();
  const settings = {
    name: form.elements.name.value.trim(),
    variant: form.elements.variant.value,
    structure: form.elements.structure.value,
    seats: Number(form.elements.seats.value),
    private: form.elements.private.checked,
    audit: form.elements.audit.checked,
    approval: form.elements.approval.checked,
  };
  const problems = [];
  if (!settings.name) problems.push(["name", t("Give the table a name (1 to 40 characters).")]);
  for (const setting of NUMBER_SETTINGS) {
    const value = wholeNumber(form.elements[setting]);
    if (Number.isNaN(value)) problems.push([setting, t("Enter a whole number, like 2.")]);
    else if (value === null && !OPTIONAL_SETTINGS.has(setting)) problems.push([setting, t("Enter a whole number.")]);
    else if (value !== null) settings[setting] = value;
  }
  const options = readOptions(form);
  problems.push(...options.problems);
  Object.assign(settings, optionsOn(options.options)); // the room assumes off what it is not told
  const inputs = problems.map(([setting, message]) => showCreateError(setting, message));
  if (inputs.length) {
    bringToSight(inputs.find(Boolean));
    return null;
  }
  return settings;
}

function rememberPrivate(table, invite) {
  const saved = privateTables().filter((entry) => entry.id !== table.id);
  savePrivateTables([{ id: table.id, name: table.name, invite }, ...saved]);
}

async function createTable(event) {
  event.preventDefault();
  clearCreateErrors();
  const settings = readSettings();
  if (!settings) return;
  const form = createForm();
  const submit = form.querySelector("button[type=submit]");
  submit.disabled = true;
  form.setAttribute("aria-busy", "true");
  try {
    const created = await request("POST", "/api/tables", settings);
    const { table, invite } = created;
    let address = `/tables/${encodeURIComponent(table.id)}`;
    if (invite) {
      rememberPrivate(table, invite);
      address += `?invite=${encodeURIComponent(invite)}`;
    }
    location.assign(address);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      // the room no longer knows this session: sign in again, then try once more
      createDialog().close();
      if (await askForName()) {
        createDialog().showModal();
        form.requestSubmit();
      }
      return;
    }
    const message = sentence(inWords(error.message));
    const setting = error instanceof ApiError && error.code === "bad_message" ? settingOf(error.message) : null;
    const input = showCreateError(setting, message);
    bringToSight(input);
  } finally {
    submit.disabled = false;
    form.removeAttribute("aria-busy");
  }
}

async function openCreate() {
  let found = identity();
  if (!found) found = await askForName();
  if (!found) return;
  const form = createForm();
  clearCreateErrors();
  if (!form.elements.name.value.trim()) form.elements.name.value = t("{name}'s table", { name: found.player.name }).slice(0, 40);
  updateCreateHints();
  createDialog().showModal();
  form.elements.name.focus();
  form.elements.name.select();
}

/* ---------- wiring ---------- */

function start() {
  restoreFilters();
  $("#filters").addEventListener("change", () => {
    saveFilters();
    renderTables();
  });
  $("#filters").addEventListener("submit", (event) => event.preventDefault());
  $("#sign-in").addEventListener("click", () => askForName());
  $("#sign-out").addEventListener("click", () => forget());
  $("#new-table").addEventListener("click", openCreate);

  const form = createForm();
  form.addEventListener("submit", createTable);
  form.addEventListener("input", updateCreateHints);
  form.addEventListener("change", updateCreateHints);
  for (const button of createDialog().querySelectorAll("[data-close]")) {
    button.addEventListener("click", () => createDialog().close());
  }

  onIdentityChange((found) => {
    showWho(found);
    renderPrivateTables();
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) loadTables();
  });

  showWho(identity());
  renderTables();
  loadTables();
  renderPrivateTables();
  startTournaments();
  startClubs();
}

start();
