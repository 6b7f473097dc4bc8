// A table's settings as form fields, named as the room's table settings are
// (docs/protocol.md "Table settings"): the club page's "open a table" and "add a recurring
// game" forms build and read the same fields. The room checks every value; the page only
// reads what was typed and names a box that holds no whole number.

import { element } from "../dom.js";
import { t } from "../i18n.js";
import { structureName, variantTitle } from "../game-words.js";
import { optionsOn, readOptions } from "../option-fields.js";

const VARIANTS = ["o8", "omaha", "bigo", "o-hilo-noq"];
const STRUCTURES = ["pot-limit", "no-limit", "limit", "mixed"];
// [setting, label, value]: an empty value is the room's default (the buy-ins)
const NUMBERS = [
  ["small_blind", () => t("Small blind"), "1"],
  ["big_blind", () => t("Big blind"), "2"],
  ["seats", () => t("Seats"), "6"],
  ["min_buy_in", () => t("Minimum buy-in"), ""],
  ["max_buy_in", () => t("Maximum buy-in"), ""],
  ["action_seconds", () => t("Seconds to act"), "30"],
];
const OPTIONAL = new Set(["min_buy_in", "max_buy_in"]);
const CHECKS = [
  ["approval", () => t("Seats by approval")],
  ["straddle", () => t("Straddle (pot and no limit)")],
  ["run_it_twice", () => t("Run it twice (the players still in vote)")],
  ["rabbit_hunt", () => t("Rabbit hunt")],
];

/** A labelled field: the box, its label and the line for its error, ids from `prefix`. */
export function field(prefix, name, labelText, control) {
  const wrapper = element("div", "field");
  const id = `${prefix}-${name}`;
  const label = element("label", "", labelText);
  label.htmlFor = id;
  control.id = id;
  control.name = name;
  const error = element("p", "field-error error");
  error.id = `${id}-error`;
  error.setAttribute("role", "alert");
  control.setAttribute("aria-describedby", error.id);
  wrapper.append(label, control, error);
  return wrapper;
}

function select(values, words, chosen) {
  const box = element("select");
  for (const value of values) {
    const option = element("option", "", words(value));
    option.value = value;
    option.selected = value === chosen;
    box.append(option);
  }
  return box;
}

function numberBox(value) {
  const box = element("input");
  box.type = "number";
  box.inputMode = "numeric";
  box.min = "0";
  box.step = "1";
  box.value = value;
  return box;
}

/** The settings' fields (the table's name first) appended to `form`, ids from `prefix`. */
export function addTableFields(form, prefix, tableName = "") {
  const name = element("input");
  name.type = "text";
  name.maxLength = 40;
  name.autocomplete = "off";
  name.value = tableName;
  const game = element("div", "grid-2");
  game.append(
    field(prefix, "variant", t("Variant"), select(VARIANTS, (code) => variantTitle(code), "o8")),
    field(prefix, "structure", t("Betting"), select(STRUCTURES, (code) => structureName(code), "pot-limit")),
  );
  const numbers = element("div", "grid-3");
  for (const [setting, label, value] of NUMBERS) numbers.append(field(prefix, setting, label(), numberBox(value)));
  const options = element("details", "options-box");
  options.append(element("summary", "", t("Home-game options")), field(prefix, "ante", t("Ante"), numberBox("")));
  for (const [setting, label] of CHECKS) {
    const check = element("label", "check");
    const box = element("input");
    box.type = "checkbox";
    box.name = setting;
    check.append(box, element("span", "", label()));
    options.append(check);
  }
  form.append(field(prefix, "name", t("Table name"), name), game, numbers, options);
}

/** Clears the errors the fields of `form` show. */
export function clearFieldErrors(form) {
  for (const box of form.querySelectorAll(".field-error, .error-box")) box.textContent = "";
  for (const box of form.querySelectorAll("[aria-invalid]")) box.removeAttribute("aria-invalid");
}

/** Shows `message` under the field `name` of `form` (ids from `prefix`); false if it has none. */
export function showFieldError(form, prefix, name, message) {
  const box = form.querySelector(`#${prefix}-${name}-error`);
  if (!box) return false;
  form.elements[name]?.setAttribute("aria-invalid", "true");
  box.textContent = message;
  const folded = box.closest("details"); // the home-game options, folded away
  if (folded) folded.open = true;
  return true;
}

/** The settings typed in `form`: {settings, problems}, each problem [name, message]. */
export function readTableFields(form) {
  const settings = {
    name: form.elements.name.value.trim(),
    variant: form.elements.variant.value,
    structure: form.elements.structure.value,
  };
  const problems = [];
  if (!settings.name) problems.push(["name", t("Give the table a name (1 to 40 characters).")]);
  for (const [setting] of NUMBERS) {
    const text = form.elements[setting].value.trim();
    if (form.elements[setting].validity.badInput || (text && !/^\d+$/.test(text))) {
      problems.push([setting, t("Enter a whole number, like 2.")]);
    } else if (text) {
      settings[setting] = Number(text);
    } else if (!OPTIONAL.has(setting)) {
      problems.push([setting, t("Enter a whole number.")]);
    }
  }
  const options = readOptions(form);
  problems.push(...options.problems);
  Object.assign(settings, optionsOn(options.options)); // the room assumes off what it is not told
  if (form.elements.approval.checked) settings.approval = true;
  return { settings, problems };
}

/**
 * Wires a dialog of table settings: `button` opens it (then `prepare(form)`), its close
 * buttons close it, and its form, once its fields (and `problemsOf(form)`) read without a
 * problem, goes to `send(settings, submit, box)`, `box` the form's line for the room's refusal.
 */
export function wireSettingsDialog({ button, dialog, prefix, prepare = () => {}, problemsOf = () => [], send }) {
  const form = dialog.querySelector("form");
  button.addEventListener("click", () => {
    clearFieldErrors(form);
    dialog.showModal();
    prepare(form);
  });
  for (const close of dialog.querySelectorAll("[data-close]")) close.addEventListener("click", () => dialog.close());
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearFieldErrors(form);
    const { settings, problems } = readTableFields(form);
    problems.push(...problemsOf(form));
    for (const [name, message] of problems) showFieldError(form, prefix, name, message);
    if (!problems.length) send(settings, form.querySelector("button[type=submit]"), form.querySelector(":scope > .error-box"));
  });
}
