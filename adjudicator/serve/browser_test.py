#!/usr/bin/env python3
"""`carc serve` in a real browser: headless Debian chromium driven through chromedriver.

Starts `carc serve --port 0` (any free port), then, by clicks on the page:
  1. places tiles D, U and V, checks the square north of D is marked as not fitting for U
     (with the clashing edge in its tooltip), puts Anna's meeple on U's road;
  2. states the disputed move (Ben's tile E north of D, turned with `r`, a meeple on its city)
     and the claim 12 : 11, presses Adjudicate and reads the verdict ("upheld", worked out by
     hand: the city of D and E is 2 tiles x 2 = 4 points for Ben, 7 -> 11);
  3. downloads the position file, checks it field by field against what was clicked, and
     runs `carc adjudicate` on it: the command line must give the page's ruling;
  4. opens the position from the page's share link;
  5. shows an error with the CLI's message;
  6. searches the rulings for "phantom" as you type and opens a ruling's page;
  7. steps through a game record imported into the database, the board drawn at each turn,
     and opens a turn in the workbench (a 71-turn JCloisterZone game: the tiles on the board
     are counted from the record);
  8. the verdict's features are marked on the editable board (the city Ben closes: D's and E's
     city segments, score event 1, Ben's meeple ringed), as in the server's picture;
  9. the expansion forms: The Messengers' scoring tracks filled in, a message the server
     refuses shown beside its field, the adjudicated position holding the tracks worked out by
     hand; The Gifts' and Christmas Present's hands written into the position file.
Screenshots go to --out. Exit 77 (ctest: skipped) only when chromium, chromedriver or
selenium is not installed and CARC_REQUIRE_BROWSER is not set; .ci/bootstrap installs them and
sets it, so in CI a missing browser fails.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77


def have_selenium():
    try:
        import selenium  # noqa: F401
        return True
    except ImportError:
        return False


def missing_browser():
    """What is missing to run the browser, or None."""
    if not have_selenium():
        return "python3-selenium"
    if not (shutil.which("chromium") or os.path.exists("/usr/bin/chromium")):
        return "chromium"
    if not (shutil.which("chromedriver") or os.path.exists("/usr/bin/chromedriver")):
        return "chromium-driver"
    return None


# Debian's python3-selenium lives in /usr/bin/python3's path; a python3 found first in PATH
# (pyenv, a venv) may not have it.
if not have_selenium() and os.path.exists("/usr/bin/python3") and \
        os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and \
        not os.environ.get("CARC_BROWSER_REEXEC"):
    os.environ["CARC_BROWSER_REEXEC"] = "1"
    os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)
    print("ok: " + msg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--carc", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--out", required=True, help="folder for the screenshots")
    args = ap.parse_args()

    missing = missing_browser()
    if missing:
        msg = f"browser test: {missing} is not installed (apt-get install chromium chromium-driver python3-selenium)"
        if os.environ.get("CARC_REQUIRE_BROWSER"):
            fail(msg + " and CARC_REQUIRE_BROWSER is set")
        print("SKIP: " + msg)
        sys.exit(SKIP)

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import Select, WebDriverWait

    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="carc-serve-test-")
    downloads = os.path.join(work, "downloads")
    os.makedirs(downloads)
    # A database with the rulings and one game record (fixtures/games/g01: Anna caps the start
    # city, Ben extends the road; 2 turns), opened read-only by the server.
    db = os.path.join(work, "carc.db")
    jcz_path = os.path.join(args.root, "fixtures/games/jcz_base-2p-000.game.json")
    for cmd in (["db", "build", "--db", db, "--root", args.root],
                ["games", "import", os.path.join(args.root, "fixtures/games/g01_city_then_road.game.json"), "--db", db],
                ["games", "import", jcz_path, "--db", db]):
        r = subprocess.run([args.carc] + cmd, capture_output=True, text=True)
        check(r.returncode == 0, f"carc {' '.join(cmd[:2])} exits 0 ({r.stderr.strip()})")
    server = subprocess.Popen(
        [args.carc, "serve", "--port", "0", "--root", args.root, "--db", db],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    driver = None
    try:
        line = server.stdout.readline().strip()
        check(line.startswith("carc serve: http://127.0.0.1:"), f"carc serve prints its URL ({line!r})")
        url = line.split(": ", 1)[1]

        opts = webdriver.ChromeOptions()
        opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=1500,1150", "--hide-scrollbars", "--no-first-run"]:
            opts.add_argument(a)
        opts.add_experimental_option("prefs", {"download.default_directory": downloads,
                                               "download.prompt_for_download": False})
        service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
        driver = webdriver.Chrome(service=service, options=opts)
        driver.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
        # The board is redrawn after every answer of the server: elements found a moment ago
        # may be gone, so reads go through one script call and clicks are retried.
        wait = WebDriverWait(driver, 20, ignored_exceptions=[StaleElementReferenceException])
        css = lambda sel: driver.find_element(By.CSS_SELECTOR, sel)  # noqa: E731

        def attr(sel, name):
            return driver.execute_script(
                "const e = document.querySelector(arguments[0]);"
                "return e ? (arguments[1] === 'text' ? e.textContent : e.getAttribute(arguments[1])) : null;",
                sel, name)

        def click(sel):
            for _ in range(10):
                try:
                    css(sel).click()
                    return
                except StaleElementReferenceException:
                    time.sleep(0.1)
            fail("cannot click " + sel)

        driver.get(url)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        check(len(driver.find_elements(By.CSS_SELECTOR, "button.pal")) == 24, "the palette shows the 24 base tiles")
        check(css('button.pal[data-tile="D"] .cnt').text == "4", "tile D: 4 in the box")

        def cell(x, y):
            return f'rect.cell[data-x="{x}"][data-y="{y}"]'

        def wait_tile(x, y, tile):
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'g.tile-g[data-x="{x}"][data-y="{y}"][data-tile="{tile}"]'))

        def wait_fit(x, y):
            wait.until(lambda d: any(c in (attr(cell(x, y), "class") or "") for c in ("fit-ok", "fit-bad", "fit-other")))

        # 1. Three tiles by clicks.
        css('button.pal[data-tile="D"]').click()
        click(cell(0, 0))
        wait_tile(0, 0, "D")
        check(attr('button.pal[data-tile="D"] .cnt', "text") == "3", "placing D leaves 3 in the box")
        click('button.pal[data-tile="U"]')
        wait_fit(0, -1)
        # U (road east-west) north of D: D's city meets a field or road in every rotation.
        check("fit-bad" in attr(cell(0, -1), "class"), "the square north of D is marked: U does not fit there")
        tip = attr(cell(0, -1) + " title", "text")
        check("the south edge (field) meets a city edge of tile D" in tip and "BASE-PLACE-EDGE" in tip,
              f"its tooltip names the clashing edge ({tip!r})")
        check("fit-ok" in attr(cell(1, 0), "class"), "east of D (road end) is marked as fitting U")
        click(cell(1, 0))
        wait_tile(1, 0, "U")
        click('button.pal[data-tile="V"]')
        wait_fit(2, 0)
        click(cell(2, 0))
        wait_tile(2, 0, "V")

        # A meeple for Anna on U's road.
        css('input[name=tool][value=figure]').click()
        Select(css("#fig-owner")).select_by_visible_text("Anna")
        Select(css("#fig-kind")).select_by_value("meeple")
        click('circle.anchor[data-x="1"][data-y="0"][data-feature="road:EW"]')
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board g.figure"))

        # Players, turn, the disputed move and the claim.
        scores = driver.find_elements(By.CSS_SELECTOR, "#players input.pscore")
        for inp, v in zip(scores, ["12", "7"]):
            inp.clear()
            inp.send_keys(v)
        Select(css("#turn-player")).select_by_visible_text("Ben")
        Select(css("#turn-tile")).select_by_value("E")
        css('input[name=tool][value=move]').click()
        wait_fit(0, -1)
        click(cell(0, -1))
        wait.until(lambda d: "rotated 180" in d.find_element(By.ID, "actions").text)
        check(True, "the disputed tile E goes north of D turned 180 (the only rotation that fits)")
        body = css("body")
        body.send_keys("r")
        wait.until(lambda d: "rotated 270" in d.find_element(By.ID, "actions").text)
        for _ in range(3):
            body.send_keys("r")
        wait.until(lambda d: "rotated 180" in d.find_element(By.ID, "actions").text)
        check(True, "r turns the disputed tile a quarter at a time (270, then back to 180)")
        click('circle.anchor[data-move="1"][data-feature="city:S"]')
        wait.until(lambda d: "place meeple on city:S" in d.find_element(By.ID, "actions").text)
        Select(css("#claim-legal")).select_by_value("true")
        css("#claim-scores").send_keys("12, 11")

        css("#btn-adjudicate").click()
        wait.until(lambda d: d.find_element(By.ID, "verdict").text)
        verdict = css("#verdict").text
        check(verdict == "upheld", f"the verdict reads upheld ({verdict!r})")
        check(css("#scores").text == "Scores: Anna 12, Ben 11", f"the scores read Anna 12, Ben 11 ({css('#scores').text!r})")
        ids = [a.text for a in driver.find_elements(By.CSS_SELECTOR, "#reasons a.rid")]
        check("BASE-PLACE-EDGE" in ids and "BASE-MEEPLE-FREE" in ids, f"the reasons cite their rulings ({sorted(set(ids))})")
        check(driver.find_elements(By.CSS_SELECTOR, "#picture svg"), "the ruling's picture is drawn")
        page_ruling = json.loads(css("#ruling-json").get_attribute("textContent"))

        # 8. The verdict's features on the editable board: the closed city is D's city:N at
        # (0, 0) and E's city:S at (0, -1) (E turned 180), score event 1, Ben's meeple on it.
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board g.hl-scored"))
        marked = driver.execute_script(
            "return [...document.querySelectorAll('#board g.hl-scored')].map("
            "g => g.getAttribute('data-x') + ',' + g.getAttribute('data-y') + ' ' + g.getAttribute('data-feature'))")
        check(sorted(marked) == ["0,-1 city:S", "0,0 city:N"], f"the board marks the scored city on both tiles ({marked})")
        labels = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#board g.hl-label")]
        check(labels == ["1"], f"the city carries score event number 1, as in the picture ({labels})")
        rings = driver.execute_script(
            "return [...document.querySelectorAll('#board circle.hl-ring')].map("
            "c => c.getAttribute('data-owner') + '@' + c.getAttribute('data-x') + ',' + c.getAttribute('data-y'))")
        check(rings == ["Ben@0,-1"], f"Ben's meeple on the city is ringed ({rings})")
        check(not driver.find_elements(By.CSS_SELECTOR, '#board g.hl[data-x="1"]'),
              "Anna's open road is not marked (not scored)")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(args.out, "serve-workbench.png"))

        # A ruling one click away.
        driver.find_element(By.CSS_SELECTOR, '#reasons a.rid[data-ruling="BASE-PLACE-EDGE"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '#drawer-body .ruling[data-ruling="BASE-PLACE-EDGE"]'))
        check(True, "a ruling ID opens the ruling's text beside the verdict")
        driver.save_screenshot(os.path.join(args.out, "serve-drawer.png"))
        css("#drawer-close").click()

        # 3. The downloaded file, as clicked, and the command line's answer on it.
        css("#btn-download").click()
        path = os.path.join(downloads, "position.json")
        deadline = time.time() + 15
        while not os.path.exists(path) and time.time() < deadline:
            time.sleep(0.2)
        check(os.path.exists(path), "Download saves position.json")
        doc = json.load(open(path))
        check(doc["board"] == [{"tile": "D", "x": 0, "y": 0, "rotation": 0},
                               {"tile": "U", "x": 1, "y": 0, "rotation": 0},
                               {"tile": "V", "x": 2, "y": 0, "rotation": 0}], "the file holds the three tiles clicked")
        check(doc["figures"] == [{"owner": 0, "kind": "meeple", "x": 1, "y": 0, "feature": "road:EW"}],
              "the file holds Anna's meeple on U's road")
        check(doc["turn"] == {"player": 1, "step": "place_tile", "tile": "E"}, "the file holds Ben's turn with E in hand")
        check(doc["question"] == {"ask": "apply",
                                  "actions": [{"type": "place_tile", "x": 0, "y": -1, "rotation": 180},
                                              {"type": "place_figure", "kind": "meeple", "feature": "city:S"}],
                                  "claim": {"legal": True, "scores": [12, 11]}},
              "the file holds the disputed move and the claim")
        cli = subprocess.run([args.carc, "adjudicate", path], capture_output=True, text=True)
        check(cli.returncode == 0, f"carc adjudicate on the downloaded file exits 0 ({cli.returncode}, {cli.stderr.strip()})")
        cli_ruling = json.loads(cli.stdout)
        for r in (cli_ruling, page_ruling):
            r.pop("file", None)
        check(cli_ruling == page_ruling, "carc adjudicate gives the page's ruling, field for field")

        # 4. The share link carries the whole position.
        css("#btn-link").click()
        wait.until(lambda d: d.find_element(By.ID, "share-link").get_attribute("value"))
        link = css("#share-link").get_attribute("value")
        check("#p=" in link, "the link carries the position compressed in its fragment")
        driver.get(url)  # a fresh page first, then the link
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        driver.get(link)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'g.tile-g[data-x="2"][data-y="0"]'))
        linked = json.loads(css("#pos-json").get_attribute("value"))
        check(linked == doc, "opening the link restores the same position")

        # 5. Errors carry the command line's message.
        claim = css("#claim-scores")
        claim.clear()
        claim.send_keys("12")
        css("#btn-adjudicate").click()
        wait.until(lambda d: "error" in (d.find_element(By.ID, "status").get_attribute("class") or ""))
        msg = css("#status").text
        check("position.json:/question/claim/scores" in msg and "exit code 65" in msg,
              f"a bad claim shows the CLI's message and exit code ({msg!r})")

        # 6. The ruling browser: search as you type, a page per ruling.
        css("#nav-rulings").click()
        search = css("#search")
        search.send_keys("phantom")
        # An in-scope Phantom ruling: every one has fixtures (`carc rulings coverage`).
        in_scope = '#hits li[data-ruling^="PH-"]:not([data-status^="needs-expansion"])'
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, in_scope))
        hit = driver.find_element(By.CSS_SELECTOR, in_scope)
        rid = hit.get_attribute("data-ruling")
        check(True, f"searching 'phantom' lists Phantom rulings ({rid} first of them)")
        driver.save_screenshot(os.path.join(args.out, "serve-search.png"))
        hit.find_element(By.CSS_SELECTOR, "a.hit").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#ruling-page .ruling[data-ruling="{rid}"]'))
        heading = css("#ruling-page h1").text
        check(heading.startswith(rid + ":"), f"the ruling's page opens ({heading!r})")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#ruling-page .fixture svg"))
        check(True, "the ruling's fixtures are drawn as pictures")
        driver.save_screenshot(os.path.join(args.out, "serve-ruling.png"))

        # 7. A game record stepped turn by turn.
        css("#nav-games").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'table.games a[href="#/game/1"]'))
        css('table.games a[href="#/game/1"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-turn h2"))
        check(css("#game-turn h2").text == "Turn 1 of 2: Anna", f"the game opens at its first turn ({css('#game-turn h2').text!r})")
        # E on D's city closes it: 2 tiles x 2 = 4 points for Anna.
        check("Scores: Anna 4, Ben 0" in css("#game-turn").text, "after turn 1 the scores are Anna 4, Ben 0")
        css("#turn-next").click()
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#game-turn h2").text.startswith("Turn 2"))
        check(css("#game-turn h2").text == "Turn 2 of 2: Ben", "the next button steps to turn 2 (Ben)")
        # The board at turn 2: the position before it (D, E) adjudicated with the turn's moves.
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-board svg"))
        check("Verdict: upheld" in css("#game-board svg").get_attribute("textContent"),
              "turn 2 is drawn with its verdict (the record's scores 4 : 2 as the rules give them)")
        click("#turn-open")
        wait.until(lambda d: d.find_element(By.ID, "view-workbench").is_displayed())
        wait_tile(1, 0, "U")
        placed = driver.find_elements(By.CSS_SELECTOR, "#board g.tile-g:not(.move-tile)")
        check(sorted((g.get_attribute("data-tile"), g.get_attribute("data-x"), g.get_attribute("data-y")) for g in placed)
              == [("D", "0", "0"), ("E", "0", "-1")], "turn 2 opens in the workbench: D and E on the board")
        check(attr('#board g.move-tile', "data-tile") == "U" and "place tile U at (1, 0)" in css("#actions").text,
              "the turn's tile U at (1, 0) is the disputed move")

        # A 71-turn JCloisterZone game: the board before turn 40 holds the start tiles and the
        # tile of every place_tile action of turns 1-39, counted from the record.
        rec = json.load(open(jcz_path))
        turn_n = 40
        expected = len(rec.get("start", [])) + sum(
            1 for t in rec["turns"][:turn_n - 1] for a in t["actions"] if a["type"] == "place_tile")
        driver.get(url + f"#/game/2/turn/{turn_n}")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-turn h2"))
        check(css("#game-turn h2").text.startswith(f"Turn {turn_n} of 71"), f"a link opens the game at turn {turn_n}")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-board svg"))
        driver.save_screenshot(os.path.join(args.out, "serve-game.png"))
        click("#turn-open")
        wait.until(lambda d: d.find_element(By.ID, "view-workbench").is_displayed())
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board g.move-tile"))
        n_tiles = len(driver.find_elements(By.CSS_SELECTOR, "#board g.tile-g:not(.move-tile)"))
        check(n_tiles == expected, f"the workbench shows the {expected} tiles on the board before turn {turn_n} ({n_tiles})")
        first = rec["turns"][turn_n - 1]["actions"][0]
        check(attr("#board g.move-tile", "data-x") == str(first["x"]) and attr("#board g.move-tile", "data-y") == str(first["y"]),
              f"turn {turn_n}'s tile is the disputed move at ({first['x']}, {first['y']})")
        css("#btn-adjudicate").click()
        wait.until(lambda d: d.find_element(By.ID, "verdict").text)
        check(css("#verdict").text == "upheld",
              f"turn {turn_n} adjudicated on the page: its moves legal and the record's scores as claimed ({css('#verdict').text!r})")

        # 9. The expansion forms. A new position with The Messengers: D at (0, 0), Anna holds E.
        # Anna's figures stand on 12 (meeple) and 3 (dame), score 15; Ben's on 5 and 0, score 5.
        # E north of D turned 180 with a meeple closes the city: 2 tiles x 2 = 4 points to Anna
        # (BASE-SCORE-CITY), put on the dame (assign_points): 3 + 4 = 7, not a multiple of 5, no
        # message (MSG-DARK). The position after: tracks Anna 12/7, Ben 5/0, scores 19 and 5.
        driver.execute_script("window.scrollTo(0, 0)")
        css("#btn-new").click()
        css('button.pal[data-tile="D"]').click()
        click(cell(0, 0))
        wait_tile(0, 0, "D")
        css('#expansions input[data-expansion="messengers"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'fieldset.xform[data-expansion="messengers"]'))

        def fill(sel, value):
            e = css(sel)
            e.clear()
            e.send_keys(value)
            driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", e)

        def ptr(p):
            return f'[data-ptr="{p}"]'
        for p, v in (("/expansions/messengers/tracks/0/meeple", "12"), ("/expansions/messengers/tracks/0/dame", "3"),
                     ("/expansions/messengers/tracks/1/meeple", "5")):
            fill(ptr(p), v)
        # The scores are still 0: the server says so (MSG-CHOOSE), not beside a form field.
        wait.until(lambda d: "MSG-CHOOSE" in d.find_element(By.ID, "expansion-error").text)
        check(True, "tracks that do not add up to the score are refused (MSG-CHOOSE) before any question")
        scores = driver.find_elements(By.CSS_SELECTOR, "#players input.pscore")
        for inp, v in zip(scores, ["15", "5"]):
            inp.clear()
            inp.send_keys(v)
        fill(ptr("/expansions/messengers/stack"), "knights, nonsense")
        stack_err = '.field-error[data-for="/expansions/messengers/stack"]'
        wait.until(lambda d: attr(stack_err, "text"))
        msg = attr(stack_err, "text")
        check("nonsense" in msg or "message" in msg, f"a message the server does not know is refused beside the stack field ({msg!r})")
        driver.save_screenshot(os.path.join(args.out, "serve-messengers-error.png"))
        fill(ptr("/expansions/messengers/stack"), "")
        wait.until(lambda d: not attr(stack_err, "text") and not attr("#expansion-error", "text"))
        check(True, "with the stack left unknown and the scores matching, the position is accepted")
        css('input[name=tool][value=move]').click()
        wait_fit(0, -1)
        click(cell(0, -1))
        wait.until(lambda d: "rotated 180" in d.find_element(By.ID, "actions").text)
        click('circle.anchor[data-move="1"][data-feature="city:S"]')
        wait.until(lambda d: "place meeple on city:S" in d.find_element(By.ID, "actions").text)
        fill("#action-json", '{"type": "assign_points", "kind": "dame"}')
        css("#btn-add-action").click()
        css("#btn-adjudicate").click()
        wait.until(lambda d: d.find_element(By.ID, "verdict").text)
        ruling = json.loads(css("#ruling-json").get_attribute("textContent"))
        check(css("#verdict").text == "legal", f"the Messengers question is legal ({css('#verdict').text!r}, {css('#status').text!r})")
        tracks = ruling["position"]["expansions"]["messengers"]["tracks"]
        check(tracks == [{"meeple": 12, "dame": 7}, {"meeple": 5, "dame": 0}],
              f"the adjudicated position: Anna's dame moved 3 -> 7, the rest as filled in ({tracks})")
        check(ruling["scores"] == [19, 5], f"scores 19 and 5 ({ruling['scores']})")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(args.out, "serve-messengers.png"))

        # The Gifts and Christmas Present: hands per player, written into the file.
        css('#expansions input[data-expansion="gifts"]').click()
        css('#expansions input[data-expansion="christmas_present"]').click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'fieldset.xform[data-expansion="christmas_present"]'))
        fill(ptr("/expansions/gifts/hands/1"), "synod, take_2")
        fill(ptr("/expansions/christmas_present/hands/0"), "cancel-attack")
        # Readings of disputed rulings: written as variants {"<RULING-ID>": "<reading>"} in every
        # module's section (POSITION_FORMAT.md "Rule variants"), never the deprecated spellings.
        def choose(expansion, ruling, reading):
            css(f'fieldset.xform[data-expansion="{expansion}"] details > summary').click()
            sel = ptr(f"/expansions/{expansion}/variants/{ruling}")
            Select(css(sel)).select_by_value(reading)
            driver.execute_script("arguments[0].dispatchEvent(new Event('change'))", css(sel))
        choose("gifts", "GIFT-Q-EXTEND", "completion-excluded")
        choose("messengers", "MSG-Q-MOVED", "any-figure-on-dark")
        doc = json.loads(css("#pos-json").get_attribute("value"))
        gifts, xmas = doc["expansions"]["gifts"], doc["expansions"]["christmas_present"]
        msg = doc["expansions"]["messengers"]
        check(gifts["hands"] == [[], ["synod", "take_2"]],
              f"Ben's gifts are in the file ({gifts['hands']})")
        check(gifts["variants"] == {"GIFT-Q-EXTEND": "completion-excluded"},
              f"the Gifts reading is in the file by ruling ID ({gifts.get('variants')})")
        check(msg.get("variants") == {"MSG-Q-MOVED": "any-figure-on-dark"} and "readings" not in msg,
              f"the Messengers reading is in the file by ruling ID, under variants ({msg})")
        check(xmas["hands"] == [["cancel-attack"], []], f"Anna's Christmas card is in the file ({xmas['hands']})")
        driver.save_screenshot(os.path.join(args.out, "serve-forms.png"))
        print("browser test: all flows passed; screenshots in " + args.out)
    finally:
        if driver:
            driver.quit()
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
