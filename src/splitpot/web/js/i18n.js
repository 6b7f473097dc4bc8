// The page's language: English, Japanese or Russian. The choice (remembered in this
// browser, else the browser's own languages, else English) is made and its catalogue
// loaded from the room (GET /api/languages/{lang}) before any module that imports this one
// runs, so every word drawn is already in the language. Messages are the English source
// strings with {name} placeholders; t() says one, tn() one about a count (its plural form
// by Intl.PluralRules). The pages' own words are marked data-i18n="..." (text) and
// data-i18n-title / -placeholder / -aria-label (attributes), applied here at load.

const SPOKEN = ["en", "ja", "ru"];
const STORAGE_KEY = "splitpot.lang";
const ATTRIBUTES = { "data-i18n-title": "title", "data-i18n-placeholder": "placeholder", "data-i18n-aria-label": "aria-label" };

/** The language chosen in this browser, else the first of the browser's it speaks, else English. */
function chosenLanguage() {
  let stored = null;
  try {
    stored = globalThis.localStorage?.getItem(STORAGE_KEY);
  } catch {
    stored = null; // storage refused: the browser's languages decide
  }
  if (SPOKEN.includes(stored)) return stored;
  const browser = globalThis.navigator;
  for (const tag of browser?.languages || [browser?.language]) {
    const primary = String(tag || "").split(/[-_]/)[0].toLowerCase();
    if (SPOKEN.includes(primary)) return primary;
  }
  return "en";
}

/** The room's catalogue of the page's words in `lang`: {messages, languages}. */
async function loadCatalogue(lang) {
  if (!globalThis.location) return null; // not in a page (node runs the replayer's code): English
  try {
    const response = await fetch(`/api/languages/${lang}`, { headers: { Accept: "application/json" } });
    if (response.ok) return await response.json();
  } catch {
    // the room cannot be reached: the page speaks English until it can
  }
  return null;
}

/** The page's language: "en", "ja" or "ru". */
export let lang = chosenLanguage();
let messages = {};
/** The languages to choose from: [{lang, name}] (each named in itself). */
export let languages = [{ lang: "en", name: "English" }, { lang: "ja", name: "日本語" }, { lang: "ru", name: "Русский" }];

const catalogue = await loadCatalogue(lang);
if (catalogue) {
  messages = catalogue.messages || {};
  if (Array.isArray(catalogue.languages) && catalogue.languages.length) languages = catalogue.languages;
} else {
  lang = "en"; // no catalogue: the source's own words
}
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

/** `text` with each {name} filled from `fields` (one unknown stays as it is). */
function fill(text, fields) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (fields && name in fields ? String(fields[name]) : whole));
}

/** A message in the page's language, its {placeholders} filled: t("Seat {seat}", {seat: 3}). */
export function t(message, fields = {}) {
  const found = messages[message];
  return fill(typeof found === "string" && found ? found : message, fields);
}

/**
 * A message about `count` things in the form the count takes in the page's language
 * (English: the singular for 1, else the plural); {count} is the number as the language
 * writes it: tn("{count} bot", "{count} bots", 3).
 */
export function tn(singular, plural, count, fields = {}) {
  const forms = messages[singular];
  let text;
  if (forms && typeof forms === "object") {
    const category = plurals.select(count);
    text = forms[category] || forms.other || forms.many || Object.values(forms).find(Boolean);
  }
  if (!text) text = count === 1 ? singular : plural;
  return fill(text, { count: formatNumber(count), ...fields });
}

/** A number as the page's language writes it (1,234 · 1 234). */
export function formatNumber(value) {
  return numbers.format(value);
}

/** A date and time as the page's language writes it. */
export function formatDate(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat(lang, options).format(date);
}

/** Remembers `chosen` as this browser's language (the page reloads to speak it). */
export function chooseLanguage(chosen) {
  if (!SPOKEN.includes(chosen)) return;
  try {
    localStorage.setItem(STORAGE_KEY, chosen);
  } catch {
    // not remembered: this page still changes
  }
}

/** The marked words of `root` (and below) in the page's language. */
export function translate(root = document) {
  if (lang === "en") return; // the pages are written in English
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const [marker, attribute] of Object.entries(ATTRIBUTES)) {
    for (const node of root.querySelectorAll(`[${marker}]`)) node.setAttribute(attribute, t(node.getAttribute(marker)));
  }
}

if (globalThis.document) {
  document.documentElement.lang = lang;
  translate();
  document.documentElement.classList.remove("i18n-pending"); // drawn in its language: shown
}
