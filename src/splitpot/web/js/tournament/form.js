// The lobby's "New tournament" form (docs/protocol.md "Tournaments", settings): what each
// kind asks (a start time for a scheduled one, bots for a sit-and-go), and its fields as
// the JSON the room takes, the levels the room's standard ladder from the first big blind.

import { t } from "../i18n.js";

const WHOLE = ["seats", "starting_stack", "buy_in", "fee", "action_seconds", "time_bank_seconds"];

function whole(input) {
  const text = input.value.trim();
  return /^\d+$/.test(text) ? Number(text) : NaN;
}

/** Shows the fields of the kind chosen, and the unit of a level's length. */
export function showFormFor(form) {
  const scheduled = form.elements.kind.value === "scheduled";
  for (const node of form.querySelectorAll(".only-scheduled")) node.hidden = !scheduled;
  for (const node of form.querySelectorAll(".only-sit-and-go")) node.hidden = scheduled;
  const byHands = form.elements.clock.value === "hands";
  form.querySelector("#tournament-length-label").textContent = byHands ? t("Hands a level") : t("Minutes a level");
  form.elements.late_levels.disabled = byHands; // a late registration needs levels by minutes
  const seats = whole(form.elements.seats);
  if (Number.isFinite(seats)) form.elements.bots.max = String(Math.max(0, seats - 1));
}

/** The form as the room's settings: {body}, or {problem} in words for the person. */
export function readTournamentForm(form) {
  const field = form.elements;
  const name = field.name.value.trim();
  if (!name) return { problem: t("Give the tournament a name (1 to 40 characters).") };
  const scheduled = field.kind.value === "scheduled";
  const body = {
    name,
    kind: field.kind.value,
    variant: field.variant.value,
    structure: field.structure.value,
    registration: field.registration.value,
    payouts: field.payouts.value,
  };
  for (const key of WHOLE) {
    const value = whole(field[key]);
    if (Number.isNaN(value)) return { problem: t("Enter a whole number for “{field}”.", { field: labelOf(form, key) }) };
    body[key] = value;
  }
  const length = whole(field.level_length);
  const bigBlind = whole(field.first_big_blind);
  const anteFrom = whole(field.ante_from);
  for (const [key, value] of [["level_length", length], ["first_big_blind", bigBlind], ["ante_from", anteFrom]]) {
    if (Number.isNaN(value)) return { problem: t("Enter a whole number for “{field}”.", { field: labelOf(form, key) }) };
  }
  if (bigBlind < 2) return { problem: t("The first big blind is 2 at least.") };
  // the room's standard ladder from that big blind (docs/protocol.md "Tournaments")
  const ladder = { length: Math.max(1, length), big_blind: bigBlind, ante_from: Math.min(anteFrom, 15) };
  body.schedule = { clock: field.clock.value, standard: ladder };
  if (scheduled) {
    const start = field.start_at.value ? new Date(field.start_at.value) : null;
    if (!start || Number.isNaN(start.getTime())) return { problem: t("Choose when the tournament starts.") };
    body.start_at = start.toISOString();
    const late = whole(field.late_levels);
    if (!field.late_levels.disabled && late > 0) body.late_levels = late;
  } else {
    const bots = whole(field.bots);
    if (Number.isNaN(bots)) return { problem: t("Enter a whole number for “{field}”.", { field: labelOf(form, "bots") }) };
    if (bots) body.bots = bots;
  }
  return { body };
}

function labelOf(form, name) {
  const input = form.elements[name];
  return (input?.labels?.[0]?.textContent || name).trim();
}
