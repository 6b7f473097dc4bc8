// A command of the club page to the room: the button waits while the room answers, and a
// refusal is shown in the words the room gives, next to the control (or at the page's
// top); the page then draws the club again as the room now has it.

import { sentence } from "../api.js";
import { element } from "../dom.js";

let redraw = async () => {};

/** What to call after every command (the page's refresh). */
export function afterEachCommand(callback) {
  redraw = callback;
}

/** The line under a control where the room's refusal shows (made once, inside `holder`). */
export function refusalBox(holder) {
  let box = holder.querySelector(":scope > .refusal");
  if (!box) {
    box = element("p", "refusal error-box");
    box.setAttribute("role", "alert");
    holder.append(box);
  }
  return box;
}

/**
 * Runs `command` (an async function) with `button` disabled; a refusal goes into `box`.
 * Resolves to the room's answer, or undefined when it refused.
 */
export async function act(button, box, command) {
  box.textContent = "";
  if (button) button.disabled = true;
  try {
    const answer = await command();
    await redraw();
    return answer;
  } catch (error) {
    box.textContent = sentence(error.message);
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}
