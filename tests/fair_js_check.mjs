// Checks src/splitpot/web/js/fair.js against ../shared/fairness-vector.json (node 20:
// globalThis.crypto): node tests/fair_js_check.mjs VECTOR [RECORDS]. With RECORDS (a JSON
// list of hand records, of {record, announced, own}, or of {record, rabbit}) it also prints
// the page's checks of each, as JSON, for the test to compare with verify.py's. Exit 1
// naming what differs from the vector.

import { readFileSync } from "node:fs";
import * as fair from "../src/splitpot/web/js/fair.js";

const [vectorPath, recordsPath] = process.argv.slice(2);
const vector = JSON.parse(readFileSync(vectorPath, "utf8"));
const bytes = (hex, size) => fair.fromHex(hex, size, "a vector value");
const problems = [];
const same = (what, made, wanted) => {
  if (JSON.stringify(made) !== JSON.stringify(wanted)) problems.push(`${what}: ${JSON.stringify(made)} != ${JSON.stringify(wanted)}`);
};

const commitments = await Promise.all(vector.salts.map((salt, index) => fair.cardCommitment(bytes(salt, 16), vector.pre_order[index])));
same("commitments", commitments.map(fair.toHex), vector.commitments);
const deck = await fair.deckCommitment(commitments);
same("deck_commitment", fair.toHex(deck), vector.deck_commitment);
const seed = bytes(vector.server_seed, 32);
same("server_commitment", fair.toHex(await fair.serverCommitment(seed)), vector.server_commitment);
const entropy = new Map();
for (const player of vector.players) {
  const x = bytes(player.entropy, 32);
  same(`seat ${player.seat}'s commitment`, fair.toHex(await fair.playerCommitment(x)), player.commitment);
  entropy.set(player.seat, x);
}
const key = await fair.dealKey(vector.table_id, vector.hand_id, deck, seed, entropy);
same("key", fair.toHex(key), vector.key);
const order = await fair.permutation(key);
same("permutation", order, vector.permutation);
same("deck", order.map((index) => vector.pre_order[index]), vector.deck);
const fresh = await fair.newEntropy();
same("new entropy's commitment", fresh.commitment, fair.toHex(await fair.playerCommitment(bytes(fresh.entropy, 32))));

if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
if (recordsPath) {
  const records = JSON.parse(readFileSync(recordsPath, "utf8"));
  const results = [];
  for (const item of records) {
    // a record; {record, announced, own}: the record checked against its announcement;
    // {record, rabbit}: a rabbit hunt checked against its hand's record
    if ("rabbit" in item) {
      results.push(await fair.verifyRabbit(item.record, item.rabbit));
      continue;
    }
    const checked = "record" in item ? [item.record, item.announced ?? null, item.own ?? null] : [item];
    results.push(await fair.verifyHand(...checked));
  }
  console.log(JSON.stringify(results));
} else {
  console.log("fair.js reproduces the test vector");
}
