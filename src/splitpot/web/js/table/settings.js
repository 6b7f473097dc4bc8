// The player's preferences (four-colour deck, sound, keyboard shortcuts, showing losing
// hands at the showdown), kept in localStorage; the "your turn" beep (WebAudio) and the
// shortcut keys. The room keeps the showdown one (main.js tells it).

const STORAGE_KEY = "splitpot.settings";
const DEFAULTS = { fourColour: true, sound: true, shortcuts: false, showLosing: false };
const FIELDS = { four_colour: "fourColour", sound: "sound", shortcuts: "shortcuts", show_losing: "showLosing" };

function load() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(STORAGE_KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

// Whether a key press belongs to something being typed (or to a dialog).
function typing(event) {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  if (document.querySelector("dialog[open]")) return true;
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

export function createSettings({ onShortcut, onShowLosing }) {
  const dialog = document.querySelector("#settings");
  const form = dialog.querySelector("form");
  const settings = load();
  let audio = null;

  function save() {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  }

  function apply() {
    document.body.classList.toggle("four-colour", settings.fourColour);
    document.body.classList.toggle("two-colour", !settings.fourColour);
    for (const [name, key] of Object.entries(FIELDS)) form.elements[name].checked = settings[key];
  }

  for (const [name, key] of Object.entries(FIELDS)) {
    form.elements[name].addEventListener("change", (event) => {
      settings[key] = event.target.checked;
      save();
      apply();
      if (key === "sound" && settings.sound) beep();
      if (key === "showLosing") onShowLosing(settings.showLosing);
    });
  }
  document.querySelector("#open-settings").addEventListener("click", () => dialog.showModal());

  // Browsers let a page make sound only after the visitor touched it.
  function unlock() {
    if (!audio && window.AudioContext) audio = new AudioContext();
    if (audio?.state === "suspended") audio.resume();
  }
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });

  // Two short rising tones.
  function beep() {
    if (!settings.sound) return;
    unlock();
    if (!audio || audio.state !== "running") return;
    const start = audio.currentTime;
    for (const [offset, frequency] of [[0, 660], [0.16, 880]]) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.2, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.14);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.15);
    }
  }

  document.addEventListener("keydown", (event) => {
    if (!settings.shortcuts || typing(event)) return;
    if (onShortcut(event.key.toLowerCase())) event.preventDefault();
  });

  apply();
  return {
    beep,
    // Whether the player shows a hand that cannot win (else the room mucks it).
    showLosing: () => settings.showLosing,
    // The room's choice for our seat, shown here and kept for the next time we sit.
    adoptShowLosing(value) {
      if (settings.showLosing === value) return;
      settings.showLosing = value;
      save();
      apply();
    },
  };
}
