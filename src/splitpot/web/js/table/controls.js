// Seat controls (sit with a buy-in, or ask for the seat where the host approves, post now or
// wait, away and back, top up, leave: asked once when it folds a hand), the host's
// controls (pause/resume, stakes, remove or ban a player, pass the host role, edit a stack,
// end an audited session, close the table; the home game's options are options.js's, seat
// requests seating.js's), the invite link (and
// a new one, the old one locked out), and the table's settings at a glance, its options too.

import { isHost, mySeat } from "./state.js";
import { structureName, stakesText, variantTitle } from "../game-words.js";
import { t, tn } from "../i18n.js";
import { optionWords } from "../option-words.js";

function byId(id) {
  return document.querySelector(`#${id}`);
}

export function createControls({ send, signIn, invite: firstInvite }) {
  let invite = firstInvite;
  const buyIn = byId("buy-in");
  const buyInForm = buyIn.querySelector("form");
  const topUp = byId("top-up");
  const topUpForm = topUp.querySelector("form");
  const seatControls = byId("seat-controls");
  const away = byId("away");
  const confirmLeave = byId("confirm-leave");
  const postNow = byId("post-now");
  const watching = byId("watching");
  const hostControls = byId("host-controls");
  const pauseButton = byId("host-pause");
  const pausedBadge = byId("host-paused");
  const endSession = byId("host-end-session");
  const stakesForm = byId("host-stakes");
  const seatForm = byId("host-seat");
  const seatPick = byId("host-seat-pick");
  const hostError = byId("host-error");
  const inviteBox = byId("invite");
  const inviteLink = byId("invite-link");
  const inviteStatus = byId("invite-status");
  const tableInfo = byId("table-info");
  let model = null;
  let buyInSeat = null;
  const SEAT_ACTIONS = ["remove", "ban", "host", "stack"];

  function command(type, fields = {}) {
    return send({ type, table: model.tableId, ref: type, ...fields });
  }

  function notConnected(box) {
    box.textContent = t("Not connected: try again in a moment.");
  }

  // ------------------------------------------------------------ sitting down

  async function openBuyIn(seat) {
    if (!model?.player) {
      await signIn(seat); // the page says hello again as the player, then comes back here
      return;
    }
    buyInSeat = seat;
    const { min_buy_in: min, max_buy_in: max } = model.summary;
    const amount = buyInForm.elements.buy_in;
    amount.min = String(min);
    amount.max = String(max);
    amount.value = String(max);
    buyIn.querySelector(".buy-in-seat").textContent = String(seat);
    buyIn.querySelector(".buy-in-range").textContent = t("From {least} to {most}.", { least: min, most: max });
    buyIn.querySelector(".buy-in-error").textContent = "";
    buyInForm.elements.post_now.checked = false;
    const asking = Boolean(model.summary.approval) && !isHost(model);
    buyIn.querySelector(".buy-in-approval").hidden = !asking;
    buyInForm.querySelector('button[value="sit"]').textContent = asking ? t("Ask for the seat") : t("Sit down");
    if (!buyIn.open) buyIn.showModal();
    amount.focus();
    amount.select();
  }

  buyInForm.addEventListener("submit", (event) => {
    if (event.submitter?.value !== "sit") return;
    event.preventDefault();
    const errorBox = buyIn.querySelector(".buy-in-error");
    const amount = Number(buyInForm.elements.buy_in.value);
    const { min_buy_in: min, max_buy_in: max } = model.summary;
    if (!Number.isInteger(amount) || amount < min || amount > max) {
      errorBox.textContent = t("The buy-in is from {least} to {most}.", { least: min, most: max });
      return;
    }
    const sent = command("sit", {
      seat: buyInSeat,
      buy_in: amount,
      post_now: buyInForm.elements.post_now.checked,
    });
    if (!sent) notConnected(errorBox);
  });

  // ------------------------------------------------------------ seated

  // Away: the room checks or folds for us at once, and deals us no hand; back: we play
  // again (owing blinds, from the big blind, or at once with "Post the blinds now").
  away.addEventListener("click", () => {
    if (mySeat(model)?.away) command("sit_in", { post_now: false });
    else command("sit_out");
  });
  postNow.addEventListener("click", () => command("sit_in", { post_now: true }));

  // Leaving folds a live hand (at our turn): asked once, as the terminal game asks.
  byId("leave").addEventListener("click", () => {
    const me = mySeat(model);
    if (!(model.hand && me?.status === "playing")) {
      command("leave");
      return;
    }
    const chips = me.putIn;
    confirmLeave.querySelector(".confirm-leave-text").textContent = chips
      ? tn("Leaving now folds your hand: the {count} chip you have put in is lost.", "Leaving now folds your hand: the {count} chips you have put in are lost.", chips)
      : t("Leaving now folds your hand.");
    confirmLeave.showModal();
  });
  confirmLeave.addEventListener("close", () => {
    if (confirmLeave.returnValue === "leave") command("leave");
    confirmLeave.returnValue = "";
  });

  byId("top-up-open").addEventListener("click", () => {
    const me = mySeat(model);
    if (!me) return;
    const room = Math.max(0, model.summary.max_buy_in - me.stack);
    const amount = topUpForm.elements.amount;
    amount.max = String(room);
    amount.value = String(room);
    topUp.querySelector(".top-up-range").textContent = room
      ? t("Up to {amount} (the table's maximum buy-in is {most}).", { amount: room, most: model.summary.max_buy_in })
      : t("Your stack is at the table's maximum buy-in already.");
    topUp.querySelector(".top-up-error").textContent = "";
    topUp.showModal();
  });
  topUpForm.addEventListener("submit", (event) => {
    if (event.submitter?.value !== "add") return;
    event.preventDefault();
    const amount = Number(topUpForm.elements.amount.value);
    const errorBox = topUp.querySelector(".top-up-error");
    if (!Number.isInteger(amount) || amount < 1) {
      errorBox.textContent = t("Enter a whole number of chips.");
      return;
    }
    if (!command("top_up", { amount })) notConnected(errorBox);
  });

  // ------------------------------------------------------------ host

  pauseButton.addEventListener("click", () => {
    hostError.textContent = "";
    if (!command("host", { action: model.summary.paused ? "resume" : "pause" })) notConnected(hostError);
  });
  stakesForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const small = Number(stakesForm.elements.small_blind.value);
    const big = Number(stakesForm.elements.big_blind.value);
    if (!Number.isInteger(small) || !Number.isInteger(big) || small < 1 || big < small) {
      hostError.textContent = t("The blinds are whole numbers, the small blind at most the big one.");
      return;
    }
    hostError.textContent = "";
    command("host", { action: "stakes", small_blind: small, big_blind: big });
  });
  seatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const seat = Number(seatPick.value);
    if (!seat) return;
    hostError.textContent = "";
    const action = SEAT_ACTIONS.includes(event.submitter?.value) ? event.submitter.value : "remove";
    if (action !== "stack") {
      command("host", { action, seat });
      return;
    }
    const amount = Number(seatForm.elements.amount.value);
    if (!Number.isInteger(amount) || amount === 0) {
      hostError.textContent = t("Enter the chips to add, or below 0 the chips to take.");
      return;
    }
    command("host", { action, seat, amount });
  });
  endSession.addEventListener("click", () => {
    if (!confirm(t("End the session? Every salt of its hands is published for anyone to audit; the game goes on."))) return;
    hostError.textContent = "";
    command("host", { action: "end_session" });
  });
  byId("host-close").addEventListener("click", () => {
    if (!confirm(t("Close the table? Everyone is cashed out; you may reopen it later."))) return;
    hostError.textContent = "";
    command("host", { action: "close" });
  });
  byId("new-invite").addEventListener("click", () => {
    inviteStatus.textContent = "";
    command("host", { action: "invite" });
  });

  // ------------------------------------------------------------ invite

  byId("copy-invite").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(inviteLink.value);
      inviteStatus.textContent = t("Copied.");
    } catch {
      inviteLink.select();
      inviteStatus.textContent = t("Select the link and copy it.");
    }
  });

  function drawHost() {
    const host = isHost(model);
    hostControls.hidden = !host;
    inviteBox.hidden = !host;
    document.body.classList.toggle("is-host", host);
    if (!host) return;
    const { paused, small_blind: small, big_blind: big } = model.summary;
    pauseButton.textContent = paused ? t("Resume") : t("Pause");
    pausedBadge.hidden = !paused;
    endSession.hidden = !model.summary.audit;
    const smallBox = stakesForm.elements.small_blind;
    const bigBox = stakesForm.elements.big_blind;
    if (document.activeElement !== smallBox && document.activeElement !== bigBox) {
      smallBox.value = String(small);
      bigBox.value = String(big);
    }
    const chosen = seatPick.value;
    const options = model.seats.filter(Boolean).map((seat) => {
      const option = document.createElement("option");
      option.value = String(seat.seat);
      option.textContent = t("Seat {seat}: {name}", { seat: seat.seat, name: seat.name });
      return option;
    });
    seatPick.replaceChildren(...options);
    if (options.some((option) => option.value === chosen)) seatPick.value = chosen;
    const url = new URL(`/tables/${encodeURIComponent(model.tableId)}`, location.origin);
    if (invite) url.searchParams.set("invite", invite);
    inviteLink.value = url.href;
  }

  // The table's settings at a glance; at an audited table, where its audits are.
  function drawInfo() {
    const summary = model.summary;
    const rows = [
      [t("Game"), variantTitle(summary.variant, summary.variant_name)],
      [t("Stakes"), `${stakesText(summary)} (${structureName(summary.structure).toLowerCase()})`],
      // a tournament's chips come with the entry, not bought at the table (RULES.md 8)
      ...(model.tournament ? [] : [[t("Buy-in"), t("{least} to {most}", { least: summary.min_buy_in, most: summary.max_buy_in })]]),
      [t("Seats"), t("{taken} of {seats}", { taken: model.seats.filter(Boolean).length, seats: summary.seats })],
      [t("Clock"), t("{seconds} s a decision, {bank} s time bank", { seconds: summary.action_seconds, bank: summary.time_bank_seconds })],
    ];
    const options = optionWords(summary);
    if (options.length) rows.push([t("Options"), options.join(" · ")]);
    if (summary.audit) rows.push([t("Audit"), t("every salt published when the session ends: "), auditLink]);
    tableInfo.replaceChildren(...rows.flatMap(([term, value, link]) => {
      const dt = document.createElement("dt");
      dt.textContent = term;
      const dd = document.createElement("dd");
      dd.textContent = value;
      if (link) dd.append(link());
      return [dt, dd];
    }));
  }

  // The table's last published audit (GET /api/tables/{id}/audit), for splitpot verify --audit.
  function auditLink() {
    const url = new URL(`/api/tables/${encodeURIComponent(model.tableId)}/audit`, location.origin);
    if (invite) url.searchParams.set("invite", invite);
    const link = document.createElement("a");
    link.href = url.href;
    link.id = "audit-link";
    link.textContent = t("the last audit");
    link.download = `${model.tableId}-audit.json`;
    return link;
  }

  function drawSeat() {
    const me = mySeat(model);
    seatControls.hidden = !me;
    if (me) {
      away.textContent = me.away ? t("I'm back") : t("Away");
      away.classList.toggle("primary", me.away);
      postNow.hidden = !(me.status === "waiting" && !me.away && me.stack > 0);
      if (buyIn.open) buyIn.close();
    }
    let words = "";
    if (model.tournament) {
      // RULES.md 8: the tournament seats its players, and deals in the absent
      if (!me) words = t("You are watching a table of the tournament.");
      else if (me.away) words = t("You are away: you are still dealt in, and the room checks or folds for you.");
    } else if (!me) {
      words = model.player
        ? t("You are watching. Pick an empty seat to play.")
        : t("You are watching. Pick a seat to sign in and play.");
      if (!model.seats.some((seat) => seat === null)) words = t("You are watching. Every seat is taken.");
    } else if (me.away) {
      words = t("You are away: the room checks or folds for you and deals you no hand.");
    } else if (me.stack === 0 && me.status !== "all_in") {
      words = t("You have no chips left: top up (at least {least}) to play on.", { least: model.summary.min_buy_in });
    } else if (me.status === "waiting" && !me.away && model.hand) {
      words = t("You are dealt in when the big blind comes to you, or post now.");
    }
    watching.textContent = words;
    watching.hidden = !words;
  }

  return {
    openBuyIn,
    render(next) {
      model = next;
      drawSeat();
      drawHost();
      drawInfo();
    },
    // A refusal of one of these commands shown where it was asked; true when it was ours.
    refused(ref, message) {
      if (ref === "sit" && buyIn.open) buyIn.querySelector(".buy-in-error").textContent = message;
      else if (ref === "top_up" && topUp.open) topUp.querySelector(".top-up-error").textContent = message;
      else if (ref === "host") hostError.textContent = message;
      else return false;
      return true;
    },
    // Chips added: the top-up dialog has done its work.
    toppedUp() {
      if (topUp.open) topUp.close();
    },
    // The host's new invite: the link to share from now on.
    setInvite(token) {
      invite = token;
      inviteStatus.textContent = t("A new link: the old one lets no one in any more.");
      if (model) drawHost();
    },
  };
}
