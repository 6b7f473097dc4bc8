// The deal's checks (fair.js) in the page's language. fair.js names each check and its
// detail exactly as splitpot's checker (verify.py) does, in English, and stays so (its
// test holds it to the checker's words); the page reads those names and details here,
// pattern by pattern, and says them in its language. A name or a detail no pattern knows
// (a record's own malformed value) is shown as the checker wrote it.

import { t } from "./i18n.js";

// [pattern, words from the match]: the first that matches says it.
const NAMES = [
  [/^fairness$/, () => t("fairness")],
  [/^record$/, () => t("record")],
  [/^scheme$/, () => t("scheme")],
  [/^server seed$/, () => t("server seed")],
  [/^seat (\d+)'s entropy$/, (m) => t("seat {seat}'s entropy", { seat: m[1] })],
  [/^seat (\d+)'s commitment$/, (m) => t("seat {seat}'s commitment", { seat: m[1] })],
  [/^deck commitment$/, () => t("deck commitment")],
  [/^hand$/, () => t("hand")],
  [/^card (\S+) at position (\d+)$/, (m) => t("card {card} at position {position}", { card: m[1], position: m[2] })],
  [/^seats dealt$/, () => t("seats dealt")],
  [/^hole cards$/, () => t("hole cards")],
  [/^dealt (\S+)$/, (m) => t("dealt {card}", { card: m[1] })],
  [/^position (\d+)$/, (m) => t("position {position}", { position: m[1] })],
  [/^announced$/, () => t("announced")],
  [/^announced hand$/, () => t("announced hand")],
  [/^announced deck commitment$/, () => t("announced deck commitment")],
  [/^announced server commitment$/, () => t("announced server commitment")],
  [/^announced dealing order$/, () => t("announced dealing order")],
  [/^announced seats$/, () => t("announced seats")],
  [/^your commitment$/, () => t("your commitment")],
  [/^your entropy$/, () => t("your entropy")],
  [/^the rabbit$/, () => t("the rabbit")],
  [/^the rabbit of board (\d+)$/, (m) => t("the rabbit of board {number}", { number: m[1] })],
];

const DETAILS = [
  [/^the record has no fairness object$/, () => t("the record has no fairness object")],
  [/^cannot be checked: (.*)$/s, (m) => t("cannot be checked: {why}", { why: m[1] })],
  [/^not revealed: dealt without$/, () => t("not revealed: dealt without")],
  [/^missing: the room dealt without it$/, () => t("missing: the room dealt without it")],
  [/^missing: the room dealt without your entropy$/, () => t("missing: the room dealt without your entropy")],
  [/^the fairness object is another hand's$/, () => t("the fairness object is another hand's")],
  [/^revealed, but no card of the hand$/, () => t("revealed, but no card of the hand")],
  [/^the hand was announced without its commitments$/, () => t("the hand was announced without its commitments")],
  [/^([DT]) as announced$/, (m) => t("{letter} as announced", { letter: m[1] })],
  [/^([DT]) is not the one announced$/, (m) => t("{letter} is not the one announced", { letter: m[1] })],
  [/^announced, missing from the record$/, () => t("announced, missing from the record")],
  [/^in the record, never announced$/, () => t("in the record, never announced")],
  [/^as announced$/, () => t("as announced")],
  [/^not the one announced$/, () => t("not the one announced")],
  [/^the announcement left out your commitment$/, () => t("the announcement left out your commitment")],
  [/^announced$/, () => t("announced")],
  [/^another was announced$/, () => t("another was announced")],
  [/^seat (\d+) is not among the deal's players$/, (m) => t("seat {seat} is not among the deal's players", { seat: m[1] })],
  [/^in the deal$/, () => t("in the deal")],
  [/^not yours$/, () => t("not yours")],
  [/^(\S+) to the board from position (\d+)(: not revealed)?$/, (m) => dealt(m[3], t("{card} to the board from position {position}", { card: m[1], position: m[2] }))],
  [/^(\S+) to seat (\d+) from position (\d+)(: not revealed)?$/, (m) => dealt(m[4], t("{card} to seat {seat} from position {position}", { card: m[1], seat: m[2], position: m[3] }))],
  [/^(\S+) to board (\d+) from position (\d+)(: not revealed)?$/, (m) => dealt(m[4], t("{card} to board {number} from position {position}", { card: m[1], number: m[2], position: m[3] }))],
  [/^(\S+) to the rabbit from position (\d+)(: not revealed)?$/, (m) => dealt(m[3], t("{card} to the rabbit from position {position}", { card: m[1], position: m[2] }))],
  [/^(\S+) to the rabbit of board (\d+) from position (\d+)(: not revealed)?$/, (m) => dealt(m[4], t("{card} to the rabbit of board {number} from position {position}", { card: m[1], number: m[2], position: m[3] }))],
  [/^shows (\d+) of the (\d+) to come after the (\d+) dealt$/, (m) => t("shows {count} of the {rest} to come after the {dealt} dealt", { count: m[1], rest: m[2], dealt: m[3] })],
  // a value derived from the rules: "seats 2, 3, from the button (seat 1); the record says ..."
  [/^(.*?), (from the button \(seat \d+\)|from the announced button \(seat \d+\)|each|as announced)(?:; the record says (.*))?$/s, derived],
];

function dealt(unrevealed, words) {
  return unrevealed ? t("{dealt}: not revealed", { dealt: words }) : words;
}

// A derived value's words: what the rules give, how, and what the record says instead.
function derived(match) {
  const [, made, how, claimed] = match;
  const button = /button \(seat (\d+)\)/.exec(how);
  const hows = {
    each: () => t("each"),
    "as announced": () => t("as announced"),
  };
  let said;
  if (button && how.includes("announced")) said = t("from the announced button (seat {seat})", { seat: button[1] });
  else if (button) said = t("from the button (seat {seat})", { seat: button[1] });
  else said = hows[how]();
  const words = t("{value}, {how}", { value: value(made), how: said });
  return claimed == null ? words : t("{words}; the record says {value}", { words, value: value(claimed) });
}

// A value in a derived check: "seats 1, 2", "no seat", or a number as it is.
function value(text) {
  if (text === "no seat") return t("no seat");
  const seats = /^seats (.*)$/.exec(text);
  return seats ? t("seats {seats}", { seats: seats[1] }) : text;
}

function said(patterns, text) {
  for (const [pattern, words] of patterns) {
    const match = pattern.exec(text);
    if (match) return words(match);
  }
  return text;
}

/** A check of fair.js ({name, passed, detail}) in words: {name, detail}. */
export function checkWords(check) {
  return { name: said(NAMES, check.name), detail: check.detail ? said(DETAILS, check.detail) : "" };
}
