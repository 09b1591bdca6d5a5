#!/usr/bin/env python3
"""`carc serve` in a real browser: headless Debian chromium driven through chromedriver.

Starts `carc serve --port 0` (any free port), then, by clicks on the page:
  1. starts from the start tile D at (0, 0), places U and V, checks the square north of D is
     marked as not fitting for U (with the clashing edge in its tooltip), that `r` after choosing
     a new palette tile turns that tile and not the one placed before, puts Anna's meeple on U's
     road;
  2. states the disputed move (Ben's tile E north of D, turned with `r`, a meeple on its city)
     and the claim 12 : 11, presses Adjudicate and reads the verdict ("upheld", worked out by
     hand: the city of D and E is 2 tiles x 2 = 4 points for Ben, 7 -> 11);
  3. downloads the position file, checks it field by field against what was clicked, and
     runs `carc adjudicate` on it: the command line must give the page's ruling;
  4. the one-line box under the board holds `carc convert --to line`'s line; the share link
     carries that line, readable, and opens the position it stands for;
  5. shows an error with the CLI's message; refuses, naming where, a position JSON (typed,
     opened or linked) with a part of the wrong shape, without changing the page; keeps an
     empty item of a list typed ("12,,9") and names it; sends a number typed with a leading
     zero ("007") as typed; keeps a claim's events and an unknown expansion name when a box
     is edited; shows in the forms what the position holds, not a default;
  6. searches the rulings for "phantom" as you type and opens a ruling's page;
  7. steps through a game record imported into the database, the board drawn at each turn,
     refuses a game link that names no turn ("/turn/3/turn/5", "/turn/") or no page, and
     opens a turn in the workbench (a 71-turn JCloisterZone game: the tiles on the board are
     counted from the record);
  8. the verdict's features are marked on the editable board (the city Ben closes: D's and E's
     city segments, score event 1, Ben's meeple ringed), as in the server's picture;
  9. the expansion forms: The Messengers' scoring tracks filled in, a message the server
     refuses shown beside its field, the adjudicated position holding the tracks worked out by
     hand; The Gifts' and Christmas Present's hands written into the position file; cards,
     messages and the Messengers' action chosen from pickers built from /api/modules; a deck
     of counts shown as written; an action's place typed in part refused;
 10. states the README's farm dispute (fixtures/base/disputes/d01) by clicks: the rotation of
     every tile, the evidence lines worked out by hand, every line of `carc adjudicate --format
     text` on the page, above the fold beside the board; prints the number of clicks;
 11. the same dispute by a pasted line: the same board and the CLI's lines; the address bar
     carries the line (the one-line box and links round-trip with `carc convert`, flow 4);
 12. a judge's phone, 390 px wide (and 900 px): the board first, a tile placed and turned by
     taps, a final-scoring question, the verdict scrolled into view.
Screenshots go to --out. Exit 77 (ctest: skipped) only when chromium, chromedriver or
selenium is not installed and CARC_REQUIRE_BROWSER is not set; .ci/bootstrap installs them and
sets it, so in CI a missing browser fails.
"""
import argparse
import base64
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
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.support.ui import Select, WebDriverWait
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

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

        def soon(cond, secs=5):
            """Waits a little for what a check then reads; a check, not this, fails."""
            try:
                WebDriverWait(driver, secs, ignored_exceptions=[StaleElementReferenceException]).until(cond)
            except TimeoutException:
                pass

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

        def cell(x, y):
            return f'rect.cell[data-x="{x}"][data-y="{y}"]'

        def wait_tile(x, y, tile):
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'g.tile-g[data-x="{x}"][data-y="{y}"][data-tile="{tile}"]'))

        def wait_fit(x, y):
            wait.until(lambda d: any(c in (attr(cell(x, y), "class") or "") for c in ("fit-ok", "fit-bad", "fit-other")))

        def tiles_on_board():
            return sorted(driver.execute_script(
                "return [...document.querySelectorAll('#board g.tile-g:not(.move-tile)')].map("
                "g => [g.getAttribute('data-tile'), +g.getAttribute('data-x'), +g.getAttribute('data-y'), +g.getAttribute('data-rot')])"))

        def line_settled():
            """Waits until the line box shows the line of the position as it now is."""
            n = driver.execute_script("return +(document.body.getAttribute('data-line-seq') || 0)")
            wait.until(lambda d: int(d.execute_script("return +(document.body.getAttribute('data-line-seq') || 0)")) > n)

        def hover_tile(x, y):
            ActionChains(driver).move_to_element(css(f'g.tile-g[data-x="{x}"][data-y="{y}"]')).perform()

        # 1. The page opens on a new position: the start tile D at (0, 0) (BASE-SETUP), 3 D left.
        check(tiles_on_board() == [["D", 0, 0, 0]], f"a new position holds the start tile D at (0, 0) ({tiles_on_board()})")
        check(attr('button.pal[data-tile="D"] .cnt', "text") == "3", "the start tile leaves 3 D in the box")
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
        # The r key after choosing a new palette tile turns that tile, not the one placed before.
        click('button.pal[data-tile="V"]')
        check(attr("#r-hint", "text").startswith("r turns the chosen tile V"), f"the hint names what r turns ({attr('#r-hint', 'text')!r})")
        css("body").send_keys("r")
        wait.until(lambda d: "now 90" in attr("#r-hint", "text"))
        check(["U", 1, 0, 0] in tiles_on_board(), "r after choosing V leaves U at (1, 0) unturned")
        css("body").send_keys("r")
        css("body").send_keys("r")
        css("body").send_keys("r")
        wait.until(lambda d: "now 0" in attr("#r-hint", "text"))
        wait_fit(2, 0)
        click(cell(2, 0))
        wait_tile(2, 0, "V")
        check(attr("#r-hint", "text").startswith("r turns tile V at (2, 0)"), "after placing V, r names V on the board")

        # A meeple for Anna on U's road.
        css('input[name=tool][value=figure]').click()
        Select(css("#fig-owner")).select_by_visible_text("Anna")
        Select(css("#fig-kind")).select_by_value("meeple")
        hover_tile(1, 0)
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
        wait.until(lambda d: "place knight on city:S" in d.find_element(By.ID, "actions").text)
        Select(css("#claim-legal")).select_by_value("true")
        css("#claim-scores").send_keys("12, 11")

        css("#btn-adjudicate").click()
        wait.until(lambda d: d.find_element(By.ID, "verdict").text)
        verdict = css("#verdict").text
        check(verdict == "upheld", f"the verdict reads upheld ({verdict!r})")
        check(css("#scores").text == "Scores: [12,11]" and css("#scores").get_attribute("title") == "Anna 12, Ben 11",
              f"the scores read [12,11], Anna 12, Ben 11 in the tooltip ({css('#scores').text!r})")
        check(len([e for e in driver.find_elements(By.CSS_SELECTOR, "#reasons *") if e.text.startswith("Scores:")]) == 1,
              "the scores are shown once")
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

        # The legal moves of this position (Ben, E in hand): listed beside the board, in view.
        driver.execute_script("window.scrollTo(0, 0)")
        click("#btn-legal")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#legal-list li"))
        first = css("#legal-list li").text
        box = driver.execute_script("const r = document.getElementById('legal').getBoundingClientRect(); return [r.left, r.top]")
        board_right = driver.execute_script("return document.getElementById('board-wrap').getBoundingClientRect().right")
        check(first.startswith("place tile E") and box[0] >= board_right and 0 <= box[1] < 400,
              f"the legal moves are listed beside the board, in view ({first!r} at {box})")

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

        # 4. The one-line notation: the box under the board holds the line `carc convert --to line`
        # writes for the downloaded file; the share link carries that line, readable; opening the
        # link gives the position the line stands for (`carc convert LINE --to json`).
        conv = subprocess.run([args.carc, "convert", path, "--to", "line"], capture_output=True, text=True)
        check(conv.returncode == 0, f"carc convert --to line exits 0 ({conv.stderr.strip()})")
        cli_line = conv.stdout.strip()
        wait.until(lambda d: css("#pos-line").get_attribute("value") == cli_line)
        check(True, f"the line under the board is the CLI's line for the file ({cli_line!r})")
        css("#btn-link").click()
        wait.until(lambda d: d.find_element(By.ID, "share-link").get_attribute("value"))
        link = css("#share-link").get_attribute("value")
        check("#line=C3;+players+Anna+12+/+Ben+7;+board+D+0,0+/+U+1,0+/+V+2,0;" in link,
              f"the link carries the line, readable ({link!r})")
        check(driver.current_url.endswith(link.split("#", 1)[1]), "the address bar carries the same line")
        driver.get(url)  # a fresh page first, then the link
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        driver.get(link)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'g.tile-g[data-x="2"][data-y="0"]'))
        linked = json.loads(css("#pos-json").get_attribute("value"))
        back = subprocess.run([args.carc, "convert", cli_line, "--to", "json"], capture_output=True, text=True)
        check(back.returncode == 0, f"carc convert LINE --to json exits 0 ({back.stderr.strip()})")
        check(linked == json.loads(back.stdout), "opening the link gives the position the line stands for")

        # 5. Errors carry the command line's message.
        claim = css("#claim-scores")
        claim.clear()
        claim.send_keys("12")
        css("#btn-adjudicate").click()
        wait.until(lambda d: "error" in (d.find_element(By.ID, "status").get_attribute("class") or ""))
        msg = css("#status").text
        check("position.json:/question/claim/scores" in msg and "exit code 65" in msg,
              f"a bad claim shows the CLI's message and exit code ({msg!r})")
        # A score typed as "2.5" or "1e3" is sent as typed and refused naming the field, never
        # read as 2 or 1; an empty box leaves the score out (the format's default, 0).
        # An empty item of a list ("12,,9", "12,9,") was dropped, the claim read as [12, 9]: it is
        # kept as typed (the server refuses it) and the page names it beside the box.
        for typed, want, item in (("12,,9", [12, "", 9], 2), ("12,9,", [12, 9, ""], 3), (", 12, 9", ["", 12, 9], 1)):
            claim.clear()
            claim.send_keys(typed)
            sent = json.loads(css("#pos-json").get_attribute("value"))["question"]["claim"]["scores"]
            note = css("#claim-scores-error").text
            check(sent == want and note == f"claimed scores: item {item} is empty",
                  f"claimed scores typed {typed!r} keep the empty item ({sent!r}) and name it ({note!r})")
        claim.clear()
        claim.send_keys("012, 9")
        sent = json.loads(css("#pos-json").get_attribute("value"))["question"]["claim"]["scores"]
        check(sent == ["012", 9], f"a claimed score typed 012 is sent as typed, not as 12 ({sent!r})")
        driver.execute_script("const e = document.getElementById('turn-placed'); e.value = '01,2'; e.dispatchEvent(new Event('change'))")
        sent = json.loads(css("#pos-json").get_attribute("value"))["turn"]["placed"]
        check(sent == {"x": "01", "y": 2}, f"Placed this turn typed 01,2 is sent as typed, not as (1, 2) ({sent!r})")
        driver.execute_script("const e = document.getElementById('turn-placed'); e.value = ''; e.dispatchEvent(new Event('change'))")
        claim.clear()
        claim.send_keys("12, 11")
        check(json.loads(css("#pos-json").get_attribute("value"))["question"]["claim"]["scores"] == [12, 11]
              and not css("#claim-scores-error").text, "12, 11 is read as [12, 11], nothing refused")
        # A leading zero ("007") was read as 7: it is sent as typed, like "2.5", and refused.
        for typed in ("2.5", "1e3", "007"):
            anna = driver.find_elements(By.CSS_SELECTOR, "#players input.pscore")[0]
            anna.clear()
            anna.send_keys(typed)
            sent = json.loads(css("#pos-json").get_attribute("value"))["players"][0].get("score")
            check(sent == typed, f"a score typed {typed!r} is sent as typed ({sent!r})")
            css("#btn-adjudicate").click()
            wait.until(lambda d: "/players/0/score" in d.find_element(By.ID, "status").text)
            msg = css("#status").text
            check("exit code 65" in msg, f"a score typed {typed!r} is refused naming it ({msg!r})")
        anna.clear()
        anna.send_keys("1", Keys.BACKSPACE)  # clear() alone fires no input event
        sent = json.loads(css("#pos-json").get_attribute("value"))["players"][0]
        check("score" not in sent, f"an empty score box leaves the score out ({sent!r})")
        anna.send_keys("12")
        # JSON typed into the page is read as the server reads it: JSON.parse kept the last of two
        # keys and read 12.0 as 12; both are refused naming the pointer, the position unchanged.
        before = css("#pos-json").get_attribute("value")
        for text, want in ((before.replace('"rules": {', '"rules": {"edition": "C1", ', 1),
                            "position.json:/rules/edition: duplicate key"),
                           (before.replace('"score": 12', '"score": 12.0', 1),
                            "position.json:/players/0/score: 12.0: expected a whole number")):
            check(text != before, "the test's JSON differs from the page's")
            driver.execute_script("document.getElementById('pos-json').value = arguments[0]", text)
            driver.execute_script("document.getElementById('btn-json-apply').click()")  # in a closed box
            msg = css("#status").text
            check(want in msg, f"JSON the page would misread is refused naming it ({msg!r})")
        # A part of the wrong shape was read as empty or as the default ("players": [] or {} as
        # one player P0, "board": {} as no tile, "turn": "Ben" kept and read as no turn), and a
        # tile the board cannot draw as written as another (rotation 45 drawn as 0). Typed,
        # opened as a file or linked, each is refused naming its JSON pointer, the page unchanged.
        held = driver.execute_script("return JSON.stringify(S.pos)")
        rows = len(driver.find_elements(By.CSS_SELECTOR, "#players tbody tr"))
        gone = object()
        wrong = (("players", [], "/players: expected 1 to 6 players, got 0"),
                 ("players", {}, "/players: expected an array, got object"),
                 ("players", ["Anna", "Ben"], "/players/0: expected an object, got string"),
                 ("board", {}, "/board: expected an array, got object"),
                 ("board", "D 0,0", "/board: expected an array, got string"),
                 ("board", [{"tile": "D", "x": 0, "y": 0, "rotation": 45}], "/board/0/rotation: expected 0, 90, 180 or 270, got 45"),
                 ("board", [{"tile": "D", "x": "0", "y": 0}], "/board/0/x: expected a whole number, got string"),
                 ("board", [{"tile": "Z", "x": 0, "y": 0}], '/board/0/tile: unknown tile "Z"'),
                 ("figures", {}, "/figures: expected an array, got object"),
                 ("turn", "Ben", "/turn: expected an object, got string"),
                 ("rules", "C3", "/rules: expected an object, got string"),
                 ("rules", gone, "/rules: missing"),
                 ("rules", {"expansions": "phantom"}, "/rules/expansions: expected an array, got string"),
                 ("supply", "rest", "/supply: expected an object, got string"),
                 ("expansions", [], "/expansions: expected an object, got array"),
                 ("question", {"ask": "apply", "actions": {}}, "/question/actions: expected an array, got object"),
                 ("question", {"ask": "apply", "claim": [12, 11]}, "/question/claim: expected an object, got array"))
        for part, value, want in wrong:
            bad = json.loads(before)
            if value is gone:
                del bad[part]
            else:
                bad[part] = value
            driver.execute_script("document.getElementById('pos-json').value = arguments[0]", json.dumps(bad))
            driver.execute_script("document.getElementById('btn-json-apply').click()")
            msg = css("#status").text
            check("position.json:" + want in msg and "error" in css("#status").get_attribute("class"),
                  f"{part} {'left out' if value is gone else json.dumps(value)} typed is refused naming it ({msg!r})")
            check(driver.execute_script("return JSON.stringify(S.pos)") == held
                  and len(driver.find_elements(By.CSS_SELECTOR, "#players tbody tr")) == rows,
                  f"and the page keeps the position it had ({part})")
        driver.execute_script("document.getElementById('file-open').hidden = false")
        bad_file = os.path.join(work, "shapes.json")
        with open(bad_file, "w") as f:
            json.dump(dict(json.loads(before), players={}), f)
        css("#file-open").send_keys(bad_file)
        wait.until(lambda d: "shapes.json:" in d.find_element(By.ID, "status").text)
        msg = css("#status").text
        check("shapes.json:/players: expected an array, got object" in msg and driver.execute_script("return JSON.stringify(S.pos)") == held,
              f"a file with \"players\": {{}} is refused naming it, the page unchanged ({msg!r})")
        linked = base64.urlsafe_b64encode(json.dumps(dict(json.loads(before), board={})).encode()).decode().rstrip("=")
        driver.execute_script("location.hash = arguments[0]", "#j=" + linked)
        wait.until(lambda d: "the link:" in d.find_element(By.ID, "status").text)
        msg = css("#status").text
        check("the link:/board: expected an array, got object" in msg and driver.execute_script("return JSON.stringify(S.pos)") == held,
              f"a link with \"board\": {{}} is refused naming it, the page unchanged ({msg!r})")
        # The claim boxes wrote the whole claim from what they show, dropping its "events": each
        # box now writes its own part only.
        events = [{"feature": "city", "at": [0, -1], "points": 4, "to": ["Ben"]}]
        with_events = json.loads(before)
        with_events["question"]["claim"]["events"] = events
        driver.execute_script("document.getElementById('pos-json').value = arguments[0]", json.dumps(with_events))
        driver.execute_script("document.getElementById('btn-json-apply').click()")
        claim.clear()
        claim.send_keys("12, 11")
        Select(css("#claim-legal")).select_by_value("")
        kept = json.loads(css("#pos-json").get_attribute("value"))["question"]["claim"]
        check(kept == {"scores": [12, 11], "events": events}, f"editing the claim boxes keeps the claim's events ({kept!r})")
        # Ticking an expansion rewrote the list from the names the page knows, dropping the others
        # ("phantm" is refused by the server, not silently taken away): only the ticked one changes.
        odd = json.loads(before)
        odd["rules"]["expansions"] = ["phantm"]
        driver.execute_script("document.getElementById('pos-json').value = arguments[0]", json.dumps(odd))
        driver.execute_script("document.getElementById('btn-json-apply').click()")
        css('#expansions input[data-expansion="gifts"]').click()
        got = json.loads(css("#pos-json").get_attribute("value"))["rules"]["expansions"]
        check(got == ["phantm", "gifts"], f"ticking gifts keeps the unknown name as written ({got!r})")
        css('#expansions input[data-expansion="gifts"]').click()
        got = json.loads(css("#pos-json").get_attribute("value"))["rules"]["expansions"]
        check(got == ["phantm"], f"and unticking it takes gifts away only ({got!r})")
        # The forms showed a value the position does not hold: "edition": "" as C3, whose turn 5
        # (of two players) as Ben, "placed": "1 0" as "undefined,undefined", a C1 position's city
        # scoring left out as standard (the model reads the two-tile city) and its farm scoring
        # (required under C1) as per farm. Each is shown as the position holds it, unchanged.
        shown = lambda sel: driver.execute_script(  # noqa: E731
            "const s = document.querySelector(arguments[0]); return s.selectedIndex < 0 ? null : s.options[s.selectedIndex].text", sel)
        for change, want in ((lambda d: d["rules"].update(edition=""), (("#edition", '"" (as written)'),)),
                             (lambda d: d.update(turn={"player": 5, "step": "place_figure", "placed": "1 0"}),
                              (("#turn-player", "5 (as written)"), ("#turn-placed", "1 0"))),
                             (lambda d: d["turn"].update(player="1"), (("#turn-player", '"1" (as written)'),)),
                             (lambda d: d.update(rules={"edition": "C1"}),
                              (("#edition", "C1"), ("#city-scoring", "C1: two-tile city"), ("#farm-scoring", "(left out)"))),
                             (lambda d: d["question"].update(ask="final"), (("#ask", '"final" (as written)'),))):
            odd = json.loads(before)
            change(odd)
            driver.execute_script("document.getElementById('pos-json').value = arguments[0]", json.dumps(odd))
            driver.execute_script("document.getElementById('btn-json-apply').click()")
            got = tuple((sel, shown(sel) if sel != "#turn-placed" else css(sel).get_attribute("value")) for sel, _ in want)
            check(got == want and json.loads(driver.execute_script("return JSON.stringify(S.pos)")) == odd,
                  f"the form shows what the position holds ({got!r})")
        driver.execute_script("document.getElementById('pos-json').value = arguments[0]", before)
        driver.execute_script("document.getElementById('btn-json-apply').click()")

        # 6. The ruling browser: search as you type, a page per ruling.
        css("#nav-rulings").click()
        search = css("#search")
        # A question of more than 32 words is refused with the limit's message, not cut; the
        # next question answered is shown as an answer again.
        search.send_keys(" ".join(f"q{i}" for i in range(1, 34)))
        wait.until(lambda d: "more than 32 words" in d.find_element(By.ID, "search-count").text)
        check(css("#search-count").get_attribute("class") == "error",
              "a question of 33 words is refused, naming the limit")
        search.clear()
        search.send_keys("phantom")
        wait.until(lambda d: "rulings for" in d.find_element(By.ID, "search-count").text)
        check(css("#search-count").get_attribute("class") == "",
              "the next question answered is not shown as an error")
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

        # A game link is read whole: a second turn, an empty turn, a turn or a game number with a
        # leading zero, or a path that names no page is refused, never shown as some turn (the
        # first two opened turns 2 and 1, the last the list of games).
        for hash_, want in (("#/game/1/turn/2/turn/1", 'turn: expected 1 to 2, got "2/turn/1"'),
                            ("#/game/1/turn/", 'turn: expected 1 to 2, got ""'),
                            ("#/game/1/turn/02", 'turn: expected 1 to 2, got "02"'),
                            ("#/game/01/turn/1", 'game: expected a game number, got "01"'),
                            ("#/game/1/", "the link #/game/1/ names no page"),
                            ("#/games/1", "the link #/games/1 names no page")):
            driver.execute_script("document.getElementById('games-page').textContent = ''")
            driver.get(url + hash_)
            soon(lambda d: want in d.find_element(By.ID, "games-page").text)
            text = css("#games-page").text
            check(want in text and not driver.find_elements(By.CSS_SELECTOR, "#game-turn h2, table.games"),
                  f"the link {hash_} is refused ({text[:80]!r}), no turn or list shown")
        driver.get(url + "#/game/1/turn/2")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game-turn h2"))
        check(css("#game-turn h2").text == "Turn 2 of 2: Ben", "#/game/1/turn/2 opens turn 2")
        driver.execute_script("document.getElementById('status').textContent = ''")
        driver.get(url + "#/nowhere")
        soon(lambda d: "names no page" in d.find_element(By.ID, "status").text)
        check("names no page" in css("#status").text and "error" in css("#status").get_attribute("class"),
              f"a link that names no page is refused ({css('#status').text!r})")

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
        wait_tile(0, 0, "D")
        Select(css("#turn-tile")).select_by_value("E")
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
        # The message stack is picked from the names the module declares (MSG: 8 messages).
        add_sel = '[data-ptr-add="/expansions/messengers/stack"]'
        offered = driver.execute_script(
            "return [...document.querySelector(arguments[0]).options].map(o => o.value).filter(v => v)", add_sel)
        check(len(offered) == 8 and "knights" in offered, f"the stack picker offers the 8 declared messages ({offered})")
        Select(css(add_sel)).select_by_value("knights")
        wait.until(lambda d: json.loads(css("#pos-json").get_attribute("value"))["expansions"]["messengers"].get("stack") == ["knights"])
        check(True, "a message chosen from the picker goes into the file (stack: knights)")
        click(ptr("/expansions/messengers/stack") + ' .chip[data-name="knights"] button')
        wait.until(lambda d: "stack" not in json.loads(css("#pos-json").get_attribute("value"))["expansions"]["messengers"])
        wait.until(lambda d: not attr("#expansion-error", "text"))
        check(True, "with the stack left unknown and the scores matching, the position is accepted")
        css('input[name=tool][value=move]').click()
        wait_fit(0, -1)
        click(cell(0, -1))
        wait.until(lambda d: "rotated 180" in d.find_element(By.ID, "actions").text)
        click('circle.anchor[data-move="1"][data-feature="city:S"]')
        wait.until(lambda d: "place knight on city:S" in d.find_element(By.ID, "actions").text)
        # The Messengers' action from the picker: assign_points, the dame chosen from a list.
        Select(css("#action-type")).select_by_value("assign_points")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#action-args select"))
        Select(css("#action-args select")).select_by_value("dame")
        click("#action-args button")
        wait.until(lambda d: "assign_points" in d.find_element(By.ID, "actions").text)
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
        def pick(p, name):
            Select(css(f'[data-ptr-add="{p}"]')).select_by_value(name)
            wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'{ptr(p)} .chip[data-name="{name}"]'))
        pick("/expansions/gifts/hands/1", "synod")
        pick("/expansions/gifts/hands/1", "take_2")
        xmas_cards = driver.execute_script(
            "return [...document.querySelector('[data-ptr-add=\"/expansions/christmas_present/hands/0\"]').options].map(o => o.value).filter(v => v)")
        check(len(xmas_cards) >= 30 and "cancel-attack" in xmas_cards, f"the Christmas card picker offers the declared cards ({len(xmas_cards)})")
        pick("/expansions/christmas_present/hands/0", "cancel-attack")
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
        # A deck given as counts ({"synod": 2}, as the module reads it) was shown as "the rest,
        # order unknown", and a card picked replaced the counts with a list of that one card: it is
        # shown as written, with nothing to pick that would replace it.
        doc["expansions"]["gifts"]["deck"] = {"synod": 2, "take_2": 1}
        driver.execute_script("document.getElementById('pos-json').value = arguments[0]", json.dumps(doc))
        driver.execute_script("document.getElementById('btn-json-apply').click()")
        deck = ptr("/expansions/gifts/deck")
        check(attr(deck + " code.as-written", "text") == '{"synod":2,"take_2":1}' and not driver.find_elements(By.CSS_SELECTOR, '[data-ptr-add="/expansions/gifts/deck"]'),
              f"a deck of counts is shown as written, with no picker ({attr(deck, 'text')!r})")
        check(json.loads(css("#pos-json").get_attribute("value"))["expansions"]["gifts"]["deck"] == {"synod": 2, "take_2": 1},
              "and the position keeps the deck of counts")
        # An action's place typed in part (x without y) left the place out of the action: gift_synod
        # was added with no target. It is refused naming the empty box, no action added.
        Select(css("#action-type")).select_by_value("gift_synod")
        css('#action-args input[placeholder="x"]').send_keys("1")
        css('#action-args input[placeholder^="feature"]').send_keys("road:EW")
        click("#action-args button")
        sent = json.loads(css("#pos-json").get_attribute("value"))["question"]["actions"]
        check("where: y is empty" in css("#status").text and not any(a["type"] == "gift_synod" for a in sent),
              f"gift_synod with x but no y is refused, not added without its place ({css('#status').text!r}, {[a['type'] for a in sent]})")

        # 10. The README's base-game farm dispute (fixtures/base/disputes/d01), stated by clicks.
        # Worked out by hand (BASE-END-FARM, BASE-MAJORITY): Anna's farmer on U's north field at
        # (1, 0) lies in the field north of the road through (0, 0), (0, -1), (1, 0), (1, -1),
        # (-1, -1); it touches the closed city of D and E (0, 0)-(0, -1), the closed city
        # (1, -1)-(2, -1), and E's open city at (-1, -1) (left out): 3 x 2 = 6 to Anna. Ben's
        # farmer south of the road on D, field through (0, 0), (1, 0), touches no city: 0. Ben
        # claims 6 : 3, the rules give 6 : 0: rejected.
        driver.get(url)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        clicks = 0

        def tap(sel):
            nonlocal clicks
            clicks += 1
            click(sel)

        def key(k):
            nonlocal clicks
            clicks += 1
            css("body").send_keys(k)

        tap("#btn-new")
        wait_tile(0, 0, "D")
        tap('button.pal[data-tile="E"]')
        for (x, y) in ((0, -1), (1, -1), (2, -1), (-1, -1)):
            wait_fit(x, y)
            tap(cell(x, y))
            wait_tile(x, y, "E")
            if (x, y) == (1, -1):
                key("r")  # placed turned 0 (city north, the first that fits): a quarter to 90
                wait.until(lambda d: ["E", 1, -1, 90] in tiles_on_board())
            if (x, y) == (-1, -1):
                for _ in range(3):  # placed at 0 (fits): three quarters to 270
                    tap(f'g.tile-g[data-x="-1"][data-y="-1"]')
                wait.until(lambda d: ["E", -1, -1, 270] in tiles_on_board())
        tap('button.pal[data-tile="U"]')
        wait_fit(1, 0)
        tap(cell(1, 0))
        wait_tile(1, 0, "U")
        farm_tiles = [["D", 0, 0, 0], ["E", -1, -1, 270], ["E", 0, -1, 180], ["E", 1, -1, 90], ["E", 2, -1, 270], ["U", 1, 0, 0]]
        check(tiles_on_board() == sorted(farm_tiles), f"every placed tile has the rotation of the README's dispute ({tiles_on_board()})")
        tap('input[name=tool][value=figure]')
        for owner, (x, y), feature in (("Anna", (1, 0), "field:NL.NR.EL.WR"), ("Ben", (0, 0), "field:ER.SL.SR.WL")):
            clicks += 1
            Select(css("#fig-owner")).select_by_visible_text(owner)
            hover_tile(x, y)
            tap(f'circle.anchor[data-x="{x}"][data-y="{y}"][data-feature="{feature}"]')
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board g.figure")) == 2)
        clicks += 1
        Select(css("#ask")).select_by_value("final_score")
        wait.until(lambda d: not css("#turn-tile").is_displayed())
        check(not css("#turn-tile").is_displayed() and not css("#actions").is_displayed(),
              "a final-scoring question shows no tile in hand and no moves")
        check(not css("#btn-legal").is_displayed(), "nor the legal-moves button")
        clicks += 1
        css("#claim-scores").send_keys("6, 3")
        tap("#btn-adjudicate")
        wait.until(lambda d: d.find_element(By.ID, "verdict").text)
        check(css("#verdict").text == "rejected", f"the farm claim 6 : 3 is rejected ({css('#verdict').text!r})")
        print(f"CLICKS: the README's farm dispute stated in {clicks} clicks and keys (from New to the verdict)")

        def page_lines():
            return [" ".join(t.split()) for t in driver.execute_script(
                "return [...document.querySelectorAll('#reasons .vline')].map(e => e.textContent)")]
        lines = page_lines()
        for want in ('score field (final): 6 to ["Anna"] = 3 x 2 completed cities ["BASE-MAJORITY","BASE-END-FARM"]',
                     "supplies the completed city on (0, 0), (0, -1)",
                     "supplies the completed city on (1, -1), (2, -1)",
                     "touches the city on (-1, -1), which is not completed: left out (BASE-END-FARM)",
                     "figures: Anna's farmer at (1, 0)",
                     "majority: only Anna has figures here: Anna scores 6",
                     'score field (final): 0 to ["Ben"] = 3 x 0 completed cities ["BASE-MAJORITY","BASE-END-FARM"]',
                     "touches no city: nothing to pay (BASE-END-FARM)",
                     "figures: Ben's farmer at (0, 0)",
                     "Claim: rejected",
                     "claim: claimed scores [6,3], but the rules give [6,0]",
                     "Scores: [6,0]"):
            check(want in lines, f"the page shows the evidence line {want!r}")
        tiles_line = [l for l in lines if l.startswith("tiles: ")]
        coords = lambda l: sorted(l[len("tiles: "):].split("), ("))  # noqa: E731
        check(len(tiles_line) == 2 and sorted(map(len, map(coords, tiles_line))) == [2, 5],
              f"Anna's field runs through 5 tiles, Ben's through 2 ({tiles_line})")
        # Every line the CLI's text verdict shows is on the page (bar the file name).
        def cli_lines_on_page(position_path, want_exit):
            text = subprocess.run([args.carc, "adjudicate", position_path, "--format", "text"], capture_output=True, text=True)
            check(text.returncode == want_exit, f"carc adjudicate --format text exits {want_exit} ({text.returncode})")
            page_text = " ".join(css("#reasons").text.split())
            shown = page_lines()
            in_rulings = False
            missing = []
            for l in (" ".join(x.split()) for x in text.stdout.splitlines()):
                if l.startswith("File:") or l.startswith("Verdict:") or not l:
                    continue
                in_rulings = in_rulings or l == "Rulings:"
                if l not in (page_text if in_rulings else shown):  # summaries wrap differently
                    missing.append(l)
            check(not missing, f"every line of `carc adjudicate {os.path.basename(position_path)} --format text` is on the page (missing: {missing})")
        dl = os.path.join(work, "farm.json")
        for f in os.listdir(downloads):
            os.remove(os.path.join(downloads, f))
        css("#btn-download").click()
        deadline = time.time() + 15
        farm_path = os.path.join(downloads, "position.json")
        while not os.path.exists(farm_path) and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(0.3)
        shutil.copy(farm_path, dl)
        cli_lines_on_page(dl, 1)
        # Above the fold, beside the board: the verdict's lines are in the first screen.
        driver.execute_script("window.scrollTo(0, 0)")
        bottom = driver.execute_script(
            "const r = [...document.querySelectorAll('#reasons .vline.evidence')].pop().getBoundingClientRect(); return r.bottom")
        check(0 < bottom <= driver.execute_script("return window.innerHeight"), f"the evidence is above the fold, at the top of the page ({bottom} px)")
        board_right = driver.execute_script("return document.getElementById('board-wrap').getBoundingClientRect().right")
        reasons_left = driver.execute_script("return document.getElementById('reasons').getBoundingClientRect().left")
        check(reasons_left >= board_right, "the verdict stands beside the board")
        check(not css("#legal").is_displayed(), "no legal-moves list for a final-scoring question")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(args.out, "serve-workbench.png"))

        # 11. The same dispute by a pasted line: the board and the verdict are the same.
        farm_line = subprocess.run([args.carc, "convert", os.path.join(args.root, "fixtures/base/disputes/d01_farm_across_the_road.position.json"),
                                    "--to", "line"], capture_output=True, text=True).stdout.strip()
        driver.get(url)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        box = css("#pos-line")
        driver.execute_script("arguments[0].value = ''", box)
        box.click()
        driver.execute_script("arguments[0].value = arguments[1]", box, farm_line)
        box.send_keys(Keys.ENTER)
        wait.until(lambda d: len(tiles_on_board()) == 6)
        check(tiles_on_board() == sorted(farm_tiles), f"the pasted line puts the six tiles down turned as in the file ({tiles_on_board()})")
        check(css("#ask").get_attribute("value") == "final_score", "the pasted line's question is final scoring")
        click("#btn-adjudicate")
        wait.until(lambda d: d.find_element(By.ID, "verdict").text)
        check(css("#verdict").text == "rejected", "the pasted line gets the same verdict")
        cli_lines_on_page(os.path.join(args.root, "fixtures/base/disputes/d01_farm_across_the_road.position.json"), 1)
        check(driver.current_url.split("#", 1)[1].startswith("line=C3;"), "the address bar carries the line")
        # Open… reads a file holding a line (fixtures/examples/who_scores_the_city.line: D and U on
        # the board, Ben's turn with E in hand).
        driver.execute_script("document.getElementById('file-open').hidden = false")
        css("#file-open").send_keys(os.path.abspath(os.path.join(args.root, "fixtures/examples/who_scores_the_city.line")))
        wait.until(lambda d: len(tiles_on_board()) == 2)
        check(tiles_on_board() == [["D", 0, 0, 0], ["U", 1, 0, 0]] and css("#turn-tile").get_attribute("value") == "E",
              f"Open… reads a file holding a line ({tiles_on_board()})")
        # A partial board (fixtures/base/partial/pa07): the legality claim is upheld and the
        # turn stops before its scoring, saying which unstated square decides it, as the CLI does.
        pa07 = os.path.abspath(os.path.join(args.root, "fixtures/base/partial/pa07_monk_next_to_the_hole.position.json"))
        css("#file-open").send_keys(pa07)
        wait.until(lambda d: len(tiles_on_board()) == 4)
        click("#btn-adjudicate")
        wait.until(lambda d: d.find_element(By.ID, "verdict").text)
        check(css("#verdict").text == "upheld", f"the partial board's legality claim is upheld ({css('#verdict').text})")
        check(any(l.startswith("Pending: the turn stops at step score: board_partial: the monastery at (0, 1)") for l in page_lines()),
              "the pending line says which unstated square decides the scoring")
        cli_lines_on_page(pa07, 0)

        # 12. A judge's phone: 390 px wide. The board first, the forms below; a tile placed and
        # turned by taps, a final-scoring question asked, the verdict read.
        driver.set_window_size(900, 1000)
        driver.get(url)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        bw = driver.execute_script("return document.getElementById('board-wrap').getBoundingClientRect().width")
        check(bw >= 450, f"at 900 px the board keeps half the width ({bw} px)")
        driver.set_window_size(390, 844)
        driver.get(url)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
        width = driver.execute_script("return document.documentElement.scrollWidth")
        check(width <= 390, f"nothing runs off the side at 390 px ({width})")
        top = lambda sel: driver.execute_script("return document.querySelector(arguments[0]).getBoundingClientRect().top + window.scrollY", sel)  # noqa: E731
        check(top("#board-wrap") < top("#palette") < top("#btn-adjudicate") < top("#question-form"),
              "at 390 px: the board, then the tiles, the Adjudicate button, then the forms")
        bw = driver.execute_script("return document.getElementById('board-wrap').getBoundingClientRect().width")
        check(bw >= 340, f"the board takes the phone's width ({bw} px)")
        click('button.pal[data-tile="E"]')
        wait_fit(0, -1)
        click(cell(0, -1))
        wait_tile(0, -1, "E")
        click('g.tile-g[data-x="0"][data-y="-1"]')  # a tap on the placed tile turns it
        wait.until(lambda d: ["E", 0, -1, 270] in tiles_on_board())
        click("#btn-rotate")
        wait.until(lambda d: ["E", 0, -1, 0] in tiles_on_board())
        click("#btn-rotate")
        click("#btn-rotate")
        wait.until(lambda d: ["E", 0, -1, 180] in tiles_on_board())
        check(True, "a tap on the tile and the turn button turn it a quarter at a time")
        wait.until(lambda d: "E 0,-1 180" in css("#pos-line").get_attribute("value"))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(args.out, "serve-phone.png"))
        Select(css("#ask")).select_by_value("final_score")
        click("#btn-adjudicate")
        wait.until(lambda d: d.find_element(By.ID, "verdict").text)
        # D and E close the city at once (BASE-SCORE-CITY) so nothing is left for the final
        # scoring: no figure on the board, nobody scores; the verdict is read on the phone.
        check(css("#verdict").is_displayed() and css("#verdict").text == "scored", f"the verdict shows at 390 px ({css('#verdict').text!r})")
        in_view = driver.execute_script("const r = document.getElementById('verdict').getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight")
        check(in_view, "on a phone the page scrolls to the verdict when it comes")
        driver.save_screenshot(os.path.join(args.out, "serve-phone-verdict.png"))
        driver.set_window_size(1500, 1150)
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
