// Runs prefko's own npm package (preferans-rating-js) on random three-player tables and prints
// them with the package's changes as JSON: the cases tests/ratings/test_prefko.py checks Pulka's
// formula against (tests/ratings/prefko/cases.json is this script's committed output).
//
//   mkdir -p /tmp/prefko && cd /tmp/prefko && npm init -y && npm install preferans-rating-js@2.3.2
//   NODE_PATH=/tmp/prefko/node_modules node tests/ratings/prefko/make_cases.js > tests/ratings/prefko/cases.json
//
// 2.3.2, because 2.4.5 (the latest) ships without its lib/pref.rating.player module and its
// "main" names a file it does not ship, so it cannot be loaded; its formula is the same code.
"use strict";
const PrefRating = require("preferans-rating-js").default;
const Player = require("preferans-rating-js/lib/prefRatingPlayer").default;
const version = require("preferans-rating-js/package.json").version;

let seed = 20261207; // a fixed seed: the same cases every run (mulberry32)
function random() {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const pick = (xs) => xs[Math.floor(random() * xs.length)];

const cases = [];
for (let i = 0; i < 3000; i++) {
    const bula = pick([20, 30, 40, 50, 60, 100, 150]);
    // scores of a finished game: whole points summing to zero (ties now and then), sometimes
    // odd ones that do not sum to zero; ratings around prefko's start of 1000
    let a = int(-60, 60) * pick([1, 5, 10]);
    let b = random() < 0.1 ? a : int(-60, 60) * pick([1, 5, 10]);
    let c = random() < 0.8 ? -a - b : int(-600, 600);
    if (random() < 0.1) { a += 0.5; }
    const ratings = [int(700, 1400), int(700, 1400), int(700, 1400)];
    if (random() < 0.1) { ratings[1] = ratings[0]; }
    const scores = [a, b, c];
    const r = new PrefRating(
        new Player("p1", ratings[0], scores[0]),
        new Player("p2", ratings[1], scores[1]),
        new Player("p3", ratings[2], scores[2]),
        bula
    ).getObject();
    cases.push({ bula, ratings, scores, changes: [r.p1.change, r.p2.change, r.p3.change] });
}
process.stdout.write(JSON.stringify({ package: "preferans-rating-js", version, cases }) + "\n");
