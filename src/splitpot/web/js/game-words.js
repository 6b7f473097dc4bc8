// The games' names in the page's language, from the room's codes (o8, pot-limit, ...):
// the lobby, the table page and the hands panel name them alike. A code the page does
// not know is shown as the room names it.

import { t } from "./i18n.js";

/** The variant's full name, as the room titles it: "Omaha Hi/Lo, eight or better". */
export function variantTitle(code, fallback = code) {
  return {
    o8: t("Omaha Hi/Lo, eight or better"),
    omaha: t("Omaha"),
    bigo: t("Big O (five-card Omaha Hi/Lo, eight or better)"),
    "o-hilo-noq": t("Omaha Hi/Lo without a qualifier"),
  }[code] || fallback;
}

/** The variant's short name, for a list: "Omaha Hi/Lo". */
export function variantName(code, fallback = code) {
  return {
    o8: t("Omaha Hi/Lo"),
    omaha: t("Omaha"),
    bigo: t("Big O"),
    "o-hilo-noq": t("Hi/Lo no qualifier"),
  }[code] || fallback;
}

/** The betting structure: "Pot limit". */
export function structureName(code, fallback = code) {
  return {
    "pot-limit": t("Pot limit"),
    "no-limit": t("No limit"),
    limit: t("Fixed limit"),
    mixed: t("Mixed"),
  }[code] || fallback;
}

/** The structure as a hand's header names it: "Pot Limit". */
export function structureTitle(code, fallback = code) {
  return {
    "pot-limit": t("Pot Limit"),
    "no-limit": t("No Limit"),
    limit: t("Limit"),
    mixed: t("Mixed"),
  }[code] || fallback;
}

/** The stakes as the room writes their numbers: "1/2"; a mixed game's two rounds: "2/4 and 1/2". */
export function stakesText(betting) {
  if (!betting) return "";
  if (betting.structure === "mixed" && betting.limit && betting.pot_limit) {
    return t("{limit} and {pot_limit}", { limit: betting.limit.stakes, pot_limit: betting.pot_limit.stakes });
  }
  return betting.stakes || "";
}

/** The street: "Flop". */
export function streetName(street) {
  return {
    preflop: t("Preflop"),
    flop: t("Flop"),
    turn: t("Turn"),
    river: t("River"),
    showdown: t("Showdown"),
  }[street] || street;
}

/**
 * A seat's last action as the table's model keeps it ("fold", "call 4", "raise 12 (all in)",
 * "muck", or a post that is not a blind: "straddle 4", "ante 1"), in words: "Fold",
 * "Call 4", "Raise 12 (all in)", "Straddle 4".
 */
export function actionText(words) {
  if (!words) return "";
  const [action, amount] = words.split(" ");
  const said = {
    fold: () => t("Fold"),
    check: () => t("Check"),
    muck: () => t("Muck"),
    call: () => t("Call {amount}", { amount }),
    bet: () => t("Bet {amount}", { amount }),
    raise: () => t("Raise {amount}", { amount }),
    straddle: () => t("Straddle {amount}", { amount }),
    kill: () => t("Kill {amount}", { amount }),
    bomb: () => t("Bomb {amount}", { amount }),
    ante: () => t("Ante {amount}", { amount }),
  }[action];
  if (!said) return words;
  return words.endsWith("(all in)") ? t("{action} (all in)", { action: said() }) : said();
}
