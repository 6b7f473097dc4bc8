// Private notes and colour tags on other players (issue 24): the signed-in player's notes,
// fetched once from the room (GET /api/me/notes) and kept by player id, and the editor, a
// small dialog with the text and the colour tags that saves or deletes a note through the
// room's own API (PUT and DELETE /api/me/notes/{id}). Only their owner ever sees them.

import { request, sentence } from "../api.js";
import { element } from "../dom.js";
import { t } from "../i18n.js";

const NOTE_LENGTH = 2000; // characters of a note's text (the room refuses more)

// The words of the room's tags (its palette comes with the notes).
const COLOUR_WORDS = {
  red: t("Red"),
  orange: t("Orange"),
  yellow: t("Yellow"),
  green: t("Green"),
  blue: t("Blue"),
  purple: t("Purple"),
  grey: t("Grey"),
};

/** A tag's name in the page's language. */
export function colourWord(colour) {
  return COLOUR_WORDS[colour] || colour;
}

function notePath(player) {
  return `/api/me/notes/${encodeURIComponent(player)}`;
}

// The editor's dialog, made once: the text, a radio for each tag (and none), and the
// buttons; `ask` fills it for one player.
function noteDialog() {
  const dialog = element("dialog", "note-dialog");
  dialog.setAttribute("aria-labelledby", "note-title");
  const form = element("form");
  form.method = "dialog";
  form.noValidate = true;
  const title = element("h2");
  title.id = "note-title";
  const privacy = element("p", "hint", t("Only you ever see your notes."));
  const field = element("div", "field");
  const label = element("label", "", t("Note"));
  label.htmlFor = "note-text";
  const text = element("textarea");
  Object.assign(text, { id: "note-text", name: "text", rows: 4, maxLength: NOTE_LENGTH });
  field.append(label, text);
  const colours = element("fieldset", "note-colours");
  const errorBox = element("p", "note-error");
  errorBox.setAttribute("role", "alert");
  const buttons = element("div", "button-row");
  const button = (value, words, className = "") => {
    const node = element("button", className, words);
    Object.assign(node, { type: "submit", value });
    return node;
  };
  const remove = button("delete", t("Delete the note"), "danger");
  const cancel = button("cancel", t("Cancel"));
  cancel.formNoValidate = true;
  buttons.append(button("save", t("Save"), "primary"), remove, cancel);
  form.append(title, privacy, field, colours, errorBox, buttons);
  dialog.append(form);
  document.body.append(dialog);

  // The tags to choose from: none, then the room's palette, each with its swatch.
  function drawColours(palette, chosen) {
    const legend = element("legend", "", t("Colour tag"));
    const choices = [null, ...palette].map((colour) => {
      const choice = element("label", "check note-colour");
      const radio = element("input");
      Object.assign(radio, { type: "radio", name: "colour", value: colour || "", checked: colour === chosen });
      const swatch = element("span", "note-swatch");
      swatch.setAttribute("aria-hidden", "true");
      if (colour) swatch.dataset.noteColour = colour;
      choice.append(radio, swatch, element("span", "", colour ? colourWord(colour) : t("None")));
      return choice;
    });
    colours.replaceChildren(legend, ...choices);
  }

  return {
    dialog,
    form,
    errorBox,
    ask(name, note, palette) {
      title.textContent = t("Your note on {name}", { name });
      text.value = note?.text || "";
      drawColours(palette, note?.colour || null);
      remove.hidden = !note;
      errorBox.textContent = "";
      if (!dialog.open) dialog.showModal();
      text.focus();
    },
    written() {
      const colour = form.elements.colour.value || null;
      return { text: text.value, colour };
    },
  };
}

/**
 * The signed-in player's notes: `follow(player)` fetches them once for the player the room
 * welcomed (none for a watcher), `noteOn(id)` is a player's note ({text, colour}) or null,
 * `canNote(id)` whether one may be written on that player, `edit(id, name)` opens the
 * editor; `onChange` is called when the notes change (to draw the seats again).
 */
export function createNotes({ onChange }) {
  const kept = new Map(); // player id (text) -> {text, colour}
  let asked = null; // the player whose notes were asked for: the player id (text), or null
  let owner = null; // whose notes are kept, once they came
  let palette = Object.keys(COLOUR_WORDS);
  let editing = null; // the player whose note the editor holds
  let editor = null;

  async function follow(player) {
    const id = player?.id == null ? null : String(player.id);
    if (id === asked) return;
    asked = id;
    owner = null;
    kept.clear();
    editor?.dialog.close();
    if (id != null) {
      let answer;
      try {
        answer = await request("GET", "/api/me/notes");
      } catch {
        asked = null; // no notes drawn: the next welcome asks again
        return;
      }
      if (asked !== id) return; // another player since
      palette = answer.colours;
      for (const note of answer.notes) kept.set(String(note.player), { text: note.text, colour: note.colour });
      owner = id;
    }
    onChange();
  }

  function keep(player, note) {
    if (note) kept.set(player, { text: note.text, colour: note.colour });
    else kept.delete(player);
    onChange();
  }

  async function submit(event) {
    const choice = event.submitter?.value;
    if (choice !== "save" && choice !== "delete") return;
    event.preventDefault();
    const player = editing;
    try {
      if (choice === "delete") {
        await request("DELETE", notePath(player));
        keep(player, null);
      } else {
        const answer = await request("PUT", notePath(player), editor.written());
        keep(player, answer.note);
      }
    } catch (error) {
      editor.errorBox.textContent = sentence(error.message);
      return;
    }
    editor.dialog.close();
  }

  return {
    follow,
    noteOn(player) {
      return kept.get(String(player)) || null;
    },
    canNote(player) {
      return owner != null && player != null && String(player) !== owner;
    },
    edit(player, name) {
      if (!editor) {
        editor = noteDialog();
        editor.form.addEventListener("submit", submit);
      }
      editing = String(player);
      editor.ask(name, kept.get(editing), palette);
    },
  };
}
