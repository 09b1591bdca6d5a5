#!/usr/bin/env python3
"""A base-game Carcassonne engine that speaks carc's conformance protocol (../PROTOCOL.md).

Start here when writing your own adapter: it reads one JSON request per line on stdin and
answers one JSON line on stdout. It implements the base game only (editions C2/C3, farms
scored per farm, standard city scoring) and declares exactly that in `hello`, so the checker
sends it nothing else.

    build/carc conform --engine "python3 adjudicator/conform/examples/base_engine.py"

`--mistake NAME` plants one rule mistake (see MISTAKES) to see how the checker reports it.
"""
import argparse
import json
import sys

N, E, S, W = 1, 2, 4, 8
SIDES = "NESW"
HALVES = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"]
OFFSET = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # x grows east, y grows south


def road(s): return ("road", s, False, [])
def city(s, arms=False): return ("city", s, arms, [])
def field(h, cities=()): return ("field", h, False, list(cities))
MONASTERY = ("monastery", 0, False, [])

# The base tiles at rotation 0: count, segments (kind, sides or half-edges, arms, cities).
# A field lists the indices of the city segments of its own tile that it touches.
TILES = {
    "A": (2, [MONASTERY, road(S), field(0xFF)]), "B": (4, [MONASTERY, field(0xFF)]),
    "C": (1, [city(N | E | S | W, True)]),
    "D": (4, [city(N), road(E | W), field(0x84, [0]), field(0x78)]),
    "E": (5, [city(N), field(0xFC, [0])]),
    "F": (2, [city(E | W, True), field(0x03, [0]), field(0x30, [0])]),
    "G": (1, [city(E | W), field(0x03, [0]), field(0x30, [0])]),
    "H": (3, [city(N), city(S), field(0xCC, [0, 1])]),
    "I": (2, [city(N), city(W), field(0x3C, [0, 1])]),
    "J": (3, [city(N), road(E | S), field(0xE4, [0]), field(0x18)]),
    "K": (3, [city(N), road(S | W), field(0x9C, [0]), field(0x60)]),
    "L": (3, [city(N), road(E), road(S), road(W), field(0x84, [0]), field(0x60), field(0x18)]),
    "M": (2, [city(N | W, True), field(0x3C, [0])]), "N": (3, [city(N | W), field(0x3C, [0])]),
    "O": (2, [city(N | W, True), road(E | S), field(0x24, [0]), field(0x18)]),
    "P": (3, [city(N | W), road(E | S), field(0x24, [0]), field(0x18)]),
    "Q": (1, [city(N | E | W, True), field(0x30, [0])]), "R": (3, [city(N | E | W), field(0x30, [0])]),
    "S": (2, [city(N | E | W, True), road(S), field(0x10, [0]), field(0x20, [0])]),
    "T": (1, [city(N | E | W), road(S), field(0x10, [0]), field(0x20, [0])]),
    "U": (8, [road(W | E), field(0x87), field(0x78)]), "V": (9, [road(W | S), field(0x9F), field(0x60)]),
    "W": (4, [road(E), road(S), road(W), field(0x87), field(0x18), field(0x60)]),
    "X": (1, [road(N), road(E), road(S), road(W), field(0x81), field(0x06), field(0x18), field(0x60)]),
}
MEEPLES = 7
MISTAKES = {
    "farm-counts-open-cities": "farms also score 3 for each incomplete city they touch",
    "meeple-joins-occupied": "a meeple may go on a road that already holds a figure",
    "monastery-eight": "a completed monastery scores 8 (the monastery tile forgotten)",
    "no-farmers": "meeples are never placed on fields",
}


def rotate(tile, rot):
    """Segments of `tile` turned clockwise by rot degrees."""
    q = rot // 90
    out = []
    for kind, bits, arms, cities in TILES[tile][1]:
        if kind == "field":
            bits = ((bits << 2 * q) | (bits >> (8 - 2 * q))) & 0xFF
        else:
            bits = ((bits << q) | (bits >> (4 - q))) & 0xF
        out.append((kind, bits, arms, cities))
    return out


def edge(segs, side):
    for kind, bits, _, _ in segs:
        if kind in ("road", "city") and bits & (1 << side):
            return kind
    return "field"


def touching(segs, bits, fields):
    """The road or city segment touching side `bits` (a field: half-edge `bits`), or None."""
    for i, (kind, b, _, _) in enumerate(segs):
        if kind != "monastery" and (kind == "field") == fields and b & bits:
            return i
    return None


class Game:
    def __init__(self, p):
        self.p = p
        self.board = {(t["x"], t["y"]): (t["tile"], t.get("rotation", 0)) for t in p["board"]}
        self.segs = {xy: rotate(*tr) for xy, tr in self.board.items()}
        self.figures = [dict(f, seg=self.parse_feature((f["x"], f["y"]), f["feature"]))
                        for f in p.get("figures", [])]
        for i, pl in enumerate(p["players"]):
            pl.setdefault("score", 0)
            on_board = sum(1 for f in self.figures if f["owner"] == i)
            pl.setdefault("supply", {"meeple": MEEPLES - on_board})
        self.turn = p.get("turn", {})
        self.turn.setdefault("player", 0)
        self.turn.setdefault("step", "draw")
        self.build()

    # --- features: union-find over (x, y, segment)
    def find(self, n):
        while self.parent[n] != n:
            self.parent[n] = self.parent[self.parent[n]]
            n = self.parent[n]
        return n

    def build(self):
        self.parent = {(xy, i): (xy, i) for xy, segs in self.segs.items() for i in range(len(segs))}
        for (x, y), segs in self.segs.items():
            for side in (1, 2):  # east and south neighbours: each pair once
                other = (x + OFFSET[side][0], y + OFFSET[side][1])
                if other not in self.segs:
                    continue
                back = (side + 2) % 4
                links = [(1 << side, 1 << back, False),
                         (1 << 2 * side, 1 << 2 * back + 1, True),
                         (1 << 2 * side + 1, 1 << 2 * back, True)]
                for mine, theirs, fields in links:
                    a, b = touching(segs, mine, fields), touching(self.segs[other], theirs, fields)
                    if a is not None and b is not None:
                        self.parent[self.find(((x, y), a))] = self.find((other, b))

    def members(self, root):
        return [n for n in self.parent if self.find(n) == root]

    def complete(self, root):
        xy, i = root
        kind = self.segs[xy][i][0]
        if kind == "monastery":
            return self.neighbours(xy) == 8
        if kind == "field":
            return False
        for (x, y), j in self.members(root):
            for side in range(4):
                if self.segs[(x, y)][j][1] & (1 << side) and (x + OFFSET[side][0], y + OFFSET[side][1]) not in self.board:
                    return False
        return True

    def neighbours(self, xy):
        return sum((xy[0] + dx, xy[1] + dy) in self.board for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

    def figures_in(self, root):
        return [f for f in self.figures if self.find(((f["x"], f["y"]), f["seg"])) == root]

    def parse_feature(self, xy, name):
        kind, _, parts = name.partition(":")
        for i, (k, bits, _, _) in enumerate(self.segs[xy]):
            if k != kind:
                continue
            if kind == "monastery":
                return i
            names = HALVES if kind == "field" else SIDES
            want = [1 << names.index(p) for p in (parts.split(".") if kind == "field" else parts)]
            if want and all(bits & w for w in want):
                return i
        raise ValueError("no feature %s at %s" % (name, xy))

    def feature_name(self, xy, i):
        kind, bits, _, _ = self.segs[xy][i]
        if kind == "monastery":
            return kind
        if kind == "field":
            return "field:" + ".".join(h for b, h in enumerate(HALVES) if bits & (1 << b))
        return kind + ":" + "".join(c for b, c in enumerate(SIDES) if bits & (1 << b))

    # --- scoring (BASE-SCORE-*, BASE-END-*)
    def value(self, root, final):
        xy, i = root
        kind = self.segs[xy][i][0]
        if kind == "monastery":
            n = self.neighbours(xy)
            if not final and MISTAKE == "monastery-eight":
                return n
            return 1 + n
        tiles = {m[0] for m in self.members(root)}
        if kind == "road":
            return len(tiles)
        if kind == "city":
            arms = sum(1 for m in self.members(root) if self.segs[m[0]][m[1]][2])
            return (1 if final else 2) * (len(tiles) + arms)
        cities = set()  # a farm: 3 per completed city it touches (C2/C3 per-farm)
        for (fxy, j) in self.members(root):
            for c in self.segs[fxy][j][3]:
                croot = self.find((fxy, c))
                if self.complete(croot) or MISTAKE == "farm-counts-open-cities":
                    cities.add(croot)
        return 3 * len(cities)

    def score(self, root, final):
        figs = self.figures_in(root)
        if not figs:
            return
        count = {}
        for f in figs:
            count[f["owner"]] = count.get(f["owner"], 0) + 1
        best = max(count.values())
        points = self.value(root, final)
        for owner, n in count.items():
            if n == best:  # BASE-MAJORITY: every tied player scores in full
                self.p["players"][owner]["score"] += points

    def final_scoring(self):  # BASE-END: every feature with figures, once
        for root in {self.find(((f["x"], f["y"]), f["seg"])) for f in self.figures}:
            self.score(root, final=True)

    # --- turn steps
    def fits(self, tile, xy, rot):
        if xy in self.board or not any((xy[0] + dx, xy[1] + dy) in self.board for dx, dy in OFFSET):
            return False
        segs = rotate(tile, rot)
        for side, (dx, dy) in enumerate(OFFSET):
            other = (xy[0] + dx, xy[1] + dy)
            if other in self.segs and edge(segs, side) != edge(self.segs[other], (side + 2) % 4):
                return False
        return True

    def placements(self, tile):
        spots = {(x + dx, y + dy) for x, y in self.board for dx, dy in OFFSET} - set(self.board)
        return [(xy, r) for xy in sorted(spots) for r in (0, 90, 180, 270) if self.fits(tile, xy, r)]

    def legal(self):
        t = self.turn
        if t["step"] == "draw":
            return [{"type": "draw", "tile": k} for k, n in sorted(self.p["supply"].get("remaining", {}).items()) if n > 0]
        if t["step"] == "place_tile":
            return [{"type": "place_tile", "x": xy[0], "y": xy[1], "rotation": r} for xy, r in self.placements(t["tile"])]
        if t["step"] != "place_figure":
            return []
        out = [{"type": "pass"}]
        xy = (t["placed"]["x"], t["placed"]["y"])
        if self.p["players"][t["player"]]["supply"].get("meeple", 0) > 0:
            for i in range(len(self.segs[xy])):  # BASE-MEEPLE-FREE, BASE-MEEPLE-TILE
                held = self.figures_in(self.find((xy, i)))
                if MISTAKE == "no-farmers" and self.segs[xy][i][0] == "field":
                    continue
                if not held or (MISTAKE == "meeple-joins-occupied" and self.segs[xy][i][0] == "road"):
                    out.append({"type": "place_figure", "kind": "meeple", "x": xy[0], "y": xy[1], "feature": self.feature_name(xy, i)})
        return out

    def same(self, a, b):
        if a["type"] != b["type"]:
            return False
        if a["type"] == "place_figure":
            xy = (self.turn["placed"]["x"], self.turn["placed"]["y"])
            where = (a.get("x", xy[0]), a.get("y", xy[1]))
            try:
                return where == xy and a.get("kind", "meeple") == b["kind"] and self.parse_feature(xy, a["feature"]) == self.parse_feature(xy, b["feature"])
            except (ValueError, KeyError):
                return False
        if a["type"] == "place_tile" and a.get("tile", self.turn.get("tile")) != self.turn.get("tile"):
            return False
        return all(a.get(k) == b.get(k) for k in ("x", "y", "rotation", "tile") if k in b)

    def apply(self, action):
        if not any(self.same(action, b) for b in self.legal()):
            return False
        t, kind = self.turn, action["type"]
        if kind == "draw":
            self.p["supply"]["remaining"][action["tile"]] -= 1
            self.take(action["tile"])
            self.advance()
        elif kind == "place_tile":
            xy = (action["x"], action["y"])
            self.board[xy] = (t.pop("tile"), action["rotation"])
            self.segs[xy] = rotate(*self.board[xy])
            self.build()
            t.update(step="place_figure", placed={"x": xy[0], "y": xy[1]})
        else:
            xy = (t["placed"]["x"], t["placed"]["y"])
            if kind == "place_figure":
                seg = self.parse_feature(xy, action["feature"])
                self.figures.append({"owner": t["player"], "kind": "meeple", "x": xy[0], "y": xy[1], "seg": seg})
                self.p["players"][t["player"]]["supply"]["meeple"] -= 1
            self.score_completed(xy)
            self.turn = {"player": (t["player"] + 1) % len(self.p["players"]), "step": "draw"}
            self.advance()
        return True

    def score_completed(self, xy):  # BASE-SCORE-TIMING: after the figure step; BASE-RETURN
        roots = {self.find((xy, i)) for i, s in enumerate(self.segs[xy]) if s[0] in ("road", "city")}
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                m = (xy[0] + dx, xy[1] + dy)
                roots |= {self.find((m, i)) for i, s in enumerate(self.segs.get(m, [])) if s[0] == "monastery"}
        for root in roots:
            if self.complete(root):
                self.score(root, final=False)
                for f in self.figures_in(root):
                    self.figures.remove(f)
                    self.p["players"][f["owner"]]["supply"][f["kind"]] += 1

    def take(self, tile):  # BASE-PLACE-UNPLACEABLE: a tile that fits nowhere is removed
        if self.placements(tile):
            self.turn.update(step="place_tile", tile=tile)

    def advance(self):
        sup = self.p["supply"]
        while self.turn["step"] == "draw" and sup.get("draw_order"):
            self.take(sup["draw_order"].pop(0))
        if self.turn["step"] == "draw" and not sup.get("draw_order") and not any(sup.get("remaining", {}).values()):
            self.final_scoring()  # figures stay on the board after final scoring (PROTOCOL.md)
            self.turn = {"player": self.turn["player"], "step": "game_over"}

    def dump(self):
        p = dict(self.p)
        p["board"] = [{"tile": tr[0], "x": xy[0], "y": xy[1], "rotation": tr[1]} for xy, tr in self.board.items()]
        p["figures"] = [{"owner": f["owner"], "kind": f["kind"], "x": f["x"], "y": f["y"],
                         "feature": self.feature_name((f["x"], f["y"]), f["seg"])} for f in self.figures]
        p["turn"] = self.turn
        return p

    def scores(self):
        return [pl["score"] for pl in self.p["players"]]


def answer(req):
    cmd = req.get("cmd")
    if cmd == "hello":
        return {"ok": True, "protocol": 1, "name": "base_engine.py" + (" (mistake %s)" % MISTAKE if MISTAKE else ""),
                "expansions": [], "options": {"edition": ["C2", "C3"], "farm_scoring": ["per-farm"], "city_scoring": ["standard"]},
                "deviations": [{"ruling": r, "reason": "declared with --deviation"} for r in DEVIATIONS]}
    if cmd == "quit":
        return {"ok": True}
    if cmd not in ("legal", "apply", "final_score"):
        return {"ok": False, "error": "unknown command"}
    game = Game(req["position"])
    if game.turn["step"] == "draw":
        game.advance()
    if cmd == "legal":
        return {"ok": True, "actions": game.legal()}
    if cmd == "final_score":
        if game.turn["step"] != "game_over":
            game.final_scoring()
        return {"ok": True, "scores": game.scores()}
    if not game.apply(req["action"]):
        return {"ok": True, "legal": False}
    return {"ok": True, "legal": True, "scores": game.scores(), "position": game.dump()}


def main():
    global MISTAKE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mistake", choices=sorted(MISTAKES), help="plant one rule mistake")
    ap.add_argument("--answer", metavar="FILE", help="answer the question of one case file "
                    "(carc conform export / --out) instead of speaking the protocol")
    ap.add_argument("--deviation", metavar="RULING", action="append", default=[],
                    help="declare a ruling the engine knowingly does not follow (hello deviations)")
    args = ap.parse_args()
    MISTAKE = args.mistake
    DEVIATIONS[:] = args.deviation
    if args.answer:
        case = json.load(open(args.answer))
        q = case.pop("question")
        case.pop("meta", None)
        req = {"cmd": q["ask"], "position": case}
        if q["ask"] == "apply":
            req["action"] = q["actions"][0]
        print(json.dumps(answer(req)))
        return
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            out = answer(req)
        except Exception as e:  # never silence: a broken request gets an error answer
            req, out = {}, {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}
        out["id"] = req.get("id") if isinstance(req, dict) else None
        print(json.dumps(out), flush=True)
        if out.get("ok") and isinstance(req, dict) and req.get("cmd") == "quit":
            break


MISTAKE = None
DEVIATIONS = []
if __name__ == "__main__":
    main()
