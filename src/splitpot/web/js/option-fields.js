// The home game's options (RULES.md 7) as form fields named as the room's settings are
// (docs/protocol.md): the lobby's new table form and the host's options form read and
// fill them alike. The room checks every value; the page only reads what was typed.

import { t } from "./i18n.js";

/** Each option's value when it is off: what the room assumes of a setting not sent. */
export const OPTIONS_OFF = {
  ante: 0, rake_percent: 0, rake_cap: 0, straddle: false, run_it_twice: false, rabbit_hunt: false,
  bomb_pot: 0, bomb_every: 0, double_board: "off", kill: "off", kill_size: 0,
};

/**
 * The options typed in `form`: {options, problems}; `problems` lists [name, message] for
 * a number that is not one. An empty box is the option off (0).
 */
export function readOptions(form) {
  const options = {};
  const problems = [];
  for (const [name, off] of Object.entries(OPTIONS_OFF)) {
    const field = form.elements[name];
    if (!field) continue;
    if (typeof off === "boolean") options[name] = field.checked;
    else if (typeof off === "string") options[name] = field.value;
    else {
      const text = field.value.trim();
      const whole = name !== "rake_percent";
      const valid = whole ? /^\d+$/ : /^\d+(\.\d+)?$/;
      if (field.validity.badInput || (text && !valid.test(text))) {
        problems.push([name, whole ? t("Enter a whole number, like 2.") : t("Enter a number, like 5 or 2.5.")]);
      } else {
        options[name] = text ? Number(text) : 0;
      }
    }
  }
  return { options, problems };
}

/** Only the options that are on (what a new table needs to be told). */
export function optionsOn(options) {
  return Object.fromEntries(Object.entries(options).filter(([name, value]) => value !== OPTIONS_OFF[name]));
}

/** Fills `form` with the table's options (its summary), leaving alone the field being typed in. */
export function fillOptions(form, table) {
  for (const [name, off] of Object.entries(OPTIONS_OFF)) {
    const field = form.elements[name];
    if (!field || field === document.activeElement) continue;
    const value = table[name] ?? off;
    if (typeof off === "boolean") field.checked = Boolean(value);
    else field.value = String(value);
  }
}
