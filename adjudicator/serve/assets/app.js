// carc serve: the judge's workbench and ruling browser. Plain JavaScript, no library, nothing
// fetched but this server's JSON API. The page keeps the position file itself (S.pos) and
// edits it in place, so a download is exactly what `carc adjudicate` reads.
'use strict';

const CELL = 72;  // pixels per square on the board
const PALETTE = ['#d62728', '#1f5fd6', '#f2c40f', '#222222', '#9b30c8', '#f4f4f4'];
const MEEPLE = 'M0 -12 C4 -12 5.5 -8 3.5 -5.5 L10.5 -2.5 C12.5 -1.5 12 1.5 9.5 1.5 L5 0.5 L9 11 H2 L0 6 ' +
  'L-2 11 H-9 L-5 0.5 L-9.5 1.5 C-12 1.5 -12.5 -1.5 -10.5 -2.5 L-3.5 -5.5 C-5.5 -8 -4 -12 0 -12 Z';
const SVGNS = 'http://www.w3.org/2000/svg';
// Figure kinds, card and message names: what each module declares (/api/modules), so a judge
// picks them and never spells them.
let FIGURE_KINDS = { '': ['meeple'] };

const S = {
  tiles: {},        // id -> {id, count, rotations: [{rotation, shapes, features}]}
  order: [],        // tile ids A..X
  expansionIds: [],
  variants: {},     // module id -> [{ruling, readings: [adopted, ...]}] (/api/tiles)
  pos: null,        // the position file
  tool: 'tile',
  palette: 'D',
  paletteRot: 0,
  selected: null,   // {x, y} of the selected board tile
  fit: null,        // {tile, squares} from /api/fit for the tile being placed
  fitKey: '',
  ghost: null,      // a legal move shown while hovered
  drag: null,
  modules: {},      // /api/modules: module id -> {figure_kinds, actions, variants}
  line: '',         // the one-line notation of S.pos, as the server wrote it
};

const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}
function sv(tag, attrs, ...children) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children.flat()) if (c) e.append(c);
  return e;
}

// ---------- the API ----------
async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.body = typeof body === 'string' ? body : JSON.stringify(body);
    opts.headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(path, opts);
  const type = res.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) {
    const msg = data && data.error ? data.error : `HTTP ${res.status}`;
    const err = new Error(msg);
    err.exitCode = data && data.exit_code;
    throw err;
  }
  return data;
}
function status(text, isError) {
  const s = $('status');
  s.textContent = text || '';
  s.className = isError ? 'error' : '';
}

// ---------- the position ----------
function newPosition() {
  return {
    rules: { edition: 'C3', expansions: [], options: { city_scoring: 'standard', farm_scoring: 'per-farm' } },
    players: [{ name: 'Anna', score: 0 }, { name: 'Ben', score: 0 }],
    board: [{ tile: 'D', x: 0, y: 0, rotation: 0 }],  // the start tile (BASE-SETUP)
    figures: [],
    supply: { remaining: 'rest' },
    turn: { player: 0, step: 'draw' },  // no tile drawn yet: choosing the tile in hand moves on to place_tile
    question: { ask: 'apply' },
  };
}
const P = () => S.pos;
function tileAt(x, y) { return P().board.find((t) => t.x === x && t.y === y); }
// The question's actions, to change (an "apply" question gets the list it needs)...
function actions() {
  if (!P().question) P().question = { ask: 'apply', actions: [] };
  if (!Array.isArray(P().question.actions)) P().question.actions = [];
  return P().question.actions;
}
// ...and to read, adding nothing (a final-scoring question has no actions).
function actionList() { return (P().question && Array.isArray(P().question.actions)) ? P().question.actions : []; }
function moveAction() { return actionList().find((a) => a.type === 'place_tile'); }
function moveFigureAction() { return actionList().find((a) => a.type === 'place_figure' && a.x === undefined); }
function rotOf(t) { return ((t.rotation || 0) / 90) & 3; }
function featuresOf(id, rot) { return S.tiles[id].rotations[rot].features; }
function isField(name) { return name.startsWith('field'); }

// Tiles still in the box: the 72-tile set minus the board and the tile in hand.
function countsLeft() {
  const left = {};
  for (const id of S.order) left[id] = S.tiles[id].count;
  for (const t of P().board) if (t.tile in left) left[t.tile]--;
  const hand = P().turn && P().turn.tile;
  if (hand && hand in left) left[hand]--;
  return left;
}

function changed(opts) {
  S.highlights = null;  // the verdict's features belong to the position adjudicated
  $('legal').hidden = true;  // so do the legal moves
  syncJson();
  renderPalette();
  renderBoard();
  if (!opts || !opts.keepFit) refreshFit();
}

// ---------- tile art (the shapes model/render draws for `carc render`) ----------
function tileArt(id, rot, opts) {
  const r = S.tiles[id].rotations[rot];
  const g = sv('g', { class: 'art' });
  g.append(sv('rect', { class: 'field', width: 100, height: 100 }));
  for (const s of r.shapes) {
    if (s.role === 'field') {
      if (opts && opts.clickable) g.append(sv('path', { class: 'fieldseg', d: s.path, 'data-segment': s.segment }));
    } else if (s.role === 'road') {
      g.append(sv('path', { class: 'roadc', d: s.path, 'data-segment': s.segment }));
      g.append(sv('path', { class: 'road', d: s.path, 'data-segment': s.segment }));
    } else {
      g.append(sv('path', { class: s.role, d: s.path, 'data-segment': s.segment }));
    }
  }
  g.append(sv('rect', { class: 'edge', width: 100, height: 100 }));
  return g;
}
function figureArt(kind, owner, lying, x, y, tip) {
  const colour = PALETTE[((owner % 6) + 6) % 6];
  const g = sv('g', { transform: `translate(${x} ${y})` + (lying ? ' rotate(90)' : ''), class: 'figure' });
  if (tip) g.append(sv('title', {}, document.createTextNode(tip)));
  if (kind === 'meeple' || kind === 'phantom') {
    g.append(sv('path', { class: 'fig' + (kind === 'phantom' ? ' phantom' : ''), fill: colour, stroke: kind === 'phantom' ? colour : null, d: MEEPLE }));
  } else {
    g.append(sv('circle', { class: 'fig', r: 10, fill: colour }));
    const t = sv('text', { x: -4, y: 4 }); t.textContent = (kind || '?')[0]; g.append(t);
  }
  return g;
}

// ---------- palette ----------
function renderPalette() {
  const left = countsLeft();
  const pal = $('palette');
  pal.textContent = '';
  for (const id of S.order) {
    const svg = sv('svg', { viewBox: '0 0 100 100' }, tileArt(id, id === S.palette ? S.paletteRot : 0));
    const b = el('button', {
      class: 'pal' + (id === S.palette ? ' selected' : ''), 'data-tile': id, title: `tile ${id}: ${left[id]} of ${S.tiles[id].count} left`,
      onclick: () => { S.palette = id; S.paletteRot = 0; S.selected = null; setTool('tile'); changed(); },
    }, el('span', { class: 'lbl' }, id), el('span', { class: 'cnt' + (left[id] <= 0 ? ' none' : '') }, left[id]));
    b.prepend(svg);
    pal.append(b);
  }
}

// ---------- the board ----------
function bounds() {
  let xs = [0], ys = [0];
  for (const t of P().board) { xs.push(t.x); ys.push(t.y); }
  const m = moveAction();
  if (m) { xs.push(m.x); ys.push(m.y); }
  return { x0: Math.min(...xs) - 1, x1: Math.max(...xs) + 1, y0: Math.min(...ys) - 1, y1: Math.max(...ys) + 1 };
}

function fitFor(x, y) {
  if (!S.fit) return null;
  return S.fit.squares.find((q) => q.x === x && q.y === y) || null;
}

function placingTile() {
  if (S.tool === 'tile') return { id: S.palette, rot: S.paletteRot };
  if (S.tool === 'move' && P().turn && P().turn.tile) {
    const m = moveAction();
    return { id: P().turn.tile, rot: m ? ((m.rotation || 0) / 90) & 3 : 0 };
  }
  return null;
}

function renderBoard() {
  const b = bounds();
  const svg = $('board');
  svg.textContent = '';
  svg.setAttribute('class', 'tool-' + S.tool);
  const w = (b.x1 - b.x0 + 1) * CELL + 30, h = (b.y1 - b.y0 + 1) * CELL + 24;
  svg.setAttribute('width', w);
  svg.setAttribute('height', h);
  svg.setAttribute('viewBox', `-30 -24 ${w} ${h}`);
  const px = (x) => (x - b.x0) * CELL, py = (y) => (y - b.y0) * CELL;
  const placing = placingTile();
  const m = moveAction();
  for (let x = b.x0; x <= b.x1; x++) {
    const t = sv('text', { class: 'ax', x: px(x) + CELL / 2 - 4, y: -8 }); t.textContent = x; svg.append(t);
  }
  for (let y = b.y0; y <= b.y1; y++) {
    const t = sv('text', { class: 'ax', x: -24, y: py(y) + CELL / 2 + 4 }); t.textContent = y; svg.append(t);
  }
  // The empty squares, marked with the model's answer for the tile being placed.
  for (let y = b.y0; y <= b.y1; y++) {
    for (let x = b.x0; x <= b.x1; x++) {
      if (tileAt(x, y)) continue;
      let cls = 'cell', tip = `(${x}, ${y})`;
      const f = placing && fitFor(x, y);
      if (f) {
        const here = f.rotations[placing.rot];
        const others = f.rotations.filter((r) => r.ok).map((r) => r.rotation);
        if (here.ok) { cls += ' fit-ok'; tip += `: tile ${placing.id} rotated ${here.rotation} fits`; }
        else {
          cls += others.length ? ' fit-other' : ' fit-bad';
          tip += `: tile ${placing.id} rotated ${here.rotation} does not fit: ${here.reason} [${here.ruling}]`;
          tip += others.length ? `; it fits rotated ${others.join(' or ')}` : '; no rotation fits here';
        }
      }
      const r = sv('rect', { class: cls, x: px(x) + 1, y: py(y) + 1, width: CELL - 2, height: CELL - 2, 'data-x': x, 'data-y': y });
      r.append(sv('title', {}, document.createTextNode(tip)));
      r.addEventListener('click', () => clickSquare(x, y));
      r.addEventListener('mouseup', () => dropOn(x, y));
      svg.append(r);
    }
  }
  // The tiles, their figures, and feature anchors to click.
  const scale = CELL / 100;
  const drawTile = (id, rot, x, y, extraClass, isMove) => {
    const g = sv('g', { class: 'tile-g ' + extraClass, transform: `translate(${px(x)} ${py(y)}) scale(${scale})`, 'data-x': x, 'data-y': y, 'data-tile': id, 'data-rot': 90 * rot });
    g.append(tileArt(id, rot, { clickable: true }));
    const label = sv('text', { x: 3, y: 13, 'font-size': 12, 'font-weight': 'bold', stroke: '#fff', 'stroke-width': 2.5, 'paint-order': 'stroke' });
    label.textContent = id; g.append(label);
    g.addEventListener('click', (ev) => {
      const seg = ev.target.getAttribute && ev.target.getAttribute('data-segment');
      const figureClick = S.tool === 'figure';
      if (figureClick && seg !== null && seg !== undefined && seg !== '-1') {
        const f = featuresOf(id, rot).find((q) => q.segment === parseInt(seg, 10));
        if (f) return clickFeature(x, y, f.name, isMove);
      }
      clickTile(x, y, ev, isMove);
    });
    g.addEventListener('mousedown', (ev) => { if (!isMove && S.tool === 'tile') S.drag = { x, y }; });
    g.addEventListener('mouseenter', () => { for (const a of svg.querySelectorAll('.anchor')) a.classList.toggle('near', +a.getAttribute('data-x') === x && +a.getAttribute('data-y') === y); });
    svg.append(g);
    return g;
  };
  for (const t of P().board) drawTile(t.tile, rotOf(t), t.x, t.y, '', false);
  if (m && P().turn && P().turn.tile && S.tiles[P().turn.tile]) {
    drawTile(P().turn.tile, ((m.rotation || 0) / 90) & 3, m.x, m.y, 'move-tile', true);
    svg.append(sv('rect', { class: 'move-outline', x: px(m.x) + 2, y: py(m.y) + 2, width: CELL - 4, height: CELL - 4 }));
  }
  if (S.ghost && S.ghost.tile && S.tiles[S.ghost.tile]) {
    const g = sv('g', { class: 'ghost', transform: `translate(${px(S.ghost.x)} ${py(S.ghost.y)}) scale(${scale})` }, tileArt(S.ghost.tile, S.ghost.rot));
    svg.append(g);
    svg.append(sv('rect', { class: 'move-outline', x: px(S.ghost.x) + 2, y: py(S.ghost.y) + 2, width: CELL - 4, height: CELL - 4 }));
  }
  drawHighlights(svg, px, py, scale, false);
  for (const f of P().figures) {
    const t = tileAt(f.x, f.y);
    if (!t || !S.tiles[t.tile]) continue;
    const feat = featuresOf(t.tile, rotOf(t)).find((q) => nameMatches(q.name, f.feature));
    if (!feat) continue;
    const lying = f.posture ? f.posture === 'lying' : isField(feat.name);
    const owner = P().players[f.owner] ? P().players[f.owner].name : `player ${f.owner}`;
    svg.append(figureArt(f.kind || 'meeple', f.owner, lying, px(f.x) + feat.x * scale, py(f.y) + feat.y * scale,
      `${owner}'s ${f.kind || 'meeple'} on ${f.feature}`));
  }
  const mf = moveFigureAction();
  if (m && mf && P().turn.tile && S.tiles[P().turn.tile]) {
    const feat = featuresOf(P().turn.tile, ((m.rotation || 0) / 90) & 3).find((q) => nameMatches(q.name, mf.feature));
    if (feat) svg.append(figureArt(mf.kind || 'meeple', P().turn.player || 0, isField(feat.name), px(m.x) + feat.x * scale, py(m.y) + feat.y * scale, 'the disputed figure'));
  }
  drawHighlights(svg, px, py, scale, true);
  // Anchors on top, so a click on a feature is never taken by a figure.
  const anchors = (id, rot, x, y, isMove) => {
    for (const f of anchorPoints(id, rot)) {
      const a = sv('circle', { class: 'anchor ' + (isMove ? 'move-anchor' : 'board-anchor'), cx: px(x) + f.x * scale, cy: py(y) + f.y * scale, r: 7,
        'data-x': x, 'data-y': y, 'data-feature': f.name, 'data-move': isMove ? '1' : null });
      a.append(sv('title', {}, document.createTextNode(`${f.name} of tile ${id} at (${x}, ${y})`)));
      a.addEventListener('click', (ev) => { ev.stopPropagation(); clickFeature(x, y, f.name, isMove); });
      svg.append(a);
    }
  };
  for (const t of P().board) anchors(t.tile, rotOf(t), t.x, t.y, false);
  if (m && P().turn && P().turn.tile && S.tiles[P().turn.tile]) anchors(P().turn.tile, ((m.rotation || 0) / 90) & 3, m.x, m.y, true);
  if (S.selected && tileAt(S.selected.x, S.selected.y))
    svg.append(sv('rect', { class: 'selected-outline', x: px(S.selected.x) + 1, y: py(S.selected.y) + 1, width: CELL - 2, height: CELL - 2 }));
  renderRotateHint();
}

// The tile drawn on a square: a board tile, or the disputed tile of the question.
function drawnTileAt(x, y) {
  const t = tileAt(x, y);
  if (t && S.tiles[t.tile]) return { id: t.tile, rot: rotOf(t) };
  const m = moveAction();
  if (m && m.x === x && m.y === y && P().turn && S.tiles[P().turn.tile]) return { id: P().turn.tile, rot: ((m.rotation || 0) / 90) & 3 };
  return null;
}

// The verdict's features on the editable board (the server's highlights: the same features
// `carc adjudicate --svg` marks): every segment of each, its score event numbers, the figures
// on it ringed, a farm's incomplete cities crossed. `top`: the rings and labels, over figures.
function drawHighlights(svg, px, py, scale, top) {
  const h = S.highlights;
  if (!h) return;
  const segAt = (s) => {
    const d = drawnTileAt(s.x, s.y);
    if (!d) return null;
    const r = S.tiles[d.id].rotations[d.rot];
    return { shapes: r.shapes.filter((q) => q.segment === s.segment), anchor: r.features.find((q) => q.segment === s.segment) };
  };
  for (const f of h.features || []) {
    const cls = 'hl hl-' + f.mark;
    if (!top) {
      for (const s of f.segments) {
        const at = segAt(s);
        if (!at) continue;
        const g = sv('g', { class: cls + ' hl-' + f.kind, transform: `translate(${px(s.x)} ${py(s.y)}) scale(${scale})`, 'data-x': s.x, 'data-y': s.y, 'data-feature': s.feature });
        g.append(sv('title', {}, document.createTextNode(`${f.mark === 'scored' ? 'scored in the verdict' : 'named by the illegal move'}: ${f.kind}` + (f.labels.length ? ` (score event ${f.labels.join(', ')})` : ''))));
        for (const q of at.shapes) g.append(sv('path', { class: q.role === 'road' ? 'hl-road' : 'hl-area', d: q.path }));
        svg.append(g);
      }
      continue;
    }
    for (const fig of f.figures || []) {
      const d = drawnTileAt(fig.x, fig.y);
      if (!d) continue;
      const a = featuresOf(d.id, d.rot).find((q) => nameMatches(q.name, fig.feature));
      if (a) svg.append(sv('circle', { class: 'hl-ring ' + cls, cx: px(fig.x) + a.x * scale, cy: py(fig.y) + a.y * scale, r: 15, 'data-x': fig.x, 'data-y': fig.y, 'data-owner': fig.owner_name }));
    }
    const first = f.segments.map((s) => [s, segAt(s)]).find(([, at]) => at && at.anchor);
    if (first && f.labels.length) {
      const [s, at] = first;
      f.labels.forEach((n, k) => {
        const cx = px(s.x) + at.anchor.x * scale + 14 + 20 * k, cy = py(s.y) + at.anchor.y * scale - 12;
        const g = sv('g', { class: 'hl-label', 'data-label': n });
        g.append(sv('circle', { cx, cy, r: 9 }));
        const t = sv('text', { x: cx, y: cy + 4, 'text-anchor': 'middle' }); t.textContent = n; g.append(t);
        svg.append(g);
      });
    }
  }
  if (!top) return;
  for (const c of h.crossed || [])
    for (const s of c.segments) {
      const at = segAt(s);
      if (!at || !at.anchor) continue;
      const cx = px(s.x) + at.anchor.x * scale, cy = py(s.y) + at.anchor.y * scale;
      svg.append(sv('path', { class: 'hl-cross', d: `M${cx - 9} ${cy - 9} L${cx + 9} ${cy + 9} M${cx + 9} ${cy - 9} L${cx - 9} ${cy + 9}`, 'data-x': s.x, 'data-y': s.y }));
    }
  if (h.square && h.square.illegal)
    svg.append(sv('rect', { class: 'hl-square-illegal', x: px(h.square.x) + 2, y: py(h.square.y) + 2, width: CELL - 4, height: CELL - 4 }));
}

// The dots to click: the model's anchors (model/render SegmentAnchor), fields drawn below.
function anchorPoints(id, rot) {
  return [...featuresOf(id, rot)].sort((a, b) => isField(b.name) - isField(a.name));
}

// A feature name in a file may name any subset of its sides: road:E is road:EW's east end.
function nameMatches(full, given) {
  if (!given) return false;
  if (full === given) return true;
  const [k1, p1] = full.split(':'), [k2, p2] = given.split(':');
  if (k1 !== k2 || !p1 || !p2) return false;
  const parts = (p) => (k1 === 'field' ? p.split('.') : p.split(''));
  const have = new Set(parts(p1));
  return parts(p2).every((q) => have.has(q));
}

// ---------- clicks ----------
function clickSquare(x, y) {
  if (S.drag) return;
  if (S.tool === 'tile') {
    // The chosen rotation where it fits, else the first that fits (the model's answer).
    const f = fitFor(x, y);
    let rot = S.paletteRot;
    if (f && !f.rotations[rot].ok) { const ok = f.rotations.find((r) => r.ok); if (ok) rot = ok.rotation / 90; }
    P().board.push({ tile: S.palette, x, y, rotation: 90 * rot });
    S.selected = { x, y };
    status(`placed tile ${S.palette} at (${x}, ${y}) rotated ${90 * rot}`);
    changed();
  } else if (S.tool === 'move') {
    if (!P().turn.tile) { status('choose the tile in hand first (Turn)', true); return; }
    const m = moveAction();
    if (m && m.x === x && m.y === y) return rotateMove();
    const f = fitFor(x, y);
    const ok = f ? f.rotations.find((r) => r.ok) : null;
    const acts = actions().filter((a) => a.type !== 'place_tile' && !(a.type === 'place_figure' && a.x === undefined));
    acts.unshift({ type: 'place_tile', x, y, rotation: ok ? ok.rotation : 0 });
    P().question.actions = acts;
    status(`the disputed move: tile ${P().turn.tile} at (${x}, ${y})`);
    changed({ keepFit: true });
    renderActions();
  }
}

function clickTile(x, y, ev, isMove) {
  if (isMove) {
    if (S.tool === 'move') rotateMove();
    else if (S.tool === 'delete') { P().question.actions = actions().filter((a) => a.type !== 'place_tile' && !(a.type === 'place_figure' && a.x === undefined)); changed(); renderActions(); }
    return;
  }
  if (S.tool === 'tile') {
    if (S.selected && S.selected.x === x && S.selected.y === y) rotateSelected();
    else { S.selected = { x, y }; renderBoard(); }
  } else if (S.tool === 'delete') {
    deleteTile(x, y);
  }
}

function clickFeature(x, y, name, isMove) {
  if (S.tool === 'delete') {
    const before = P().figures.length;
    P().figures = P().figures.filter((f) => !(f.x === x && f.y === y && nameMatches(name, f.feature)));
    if (P().figures.length !== before) changed();
    return;
  }
  if (S.tool !== 'figure' && !(S.tool === 'move' && isMove)) return;
  const kind = $('fig-kind').value;
  const posture = $('fig-posture').value;
  if (isMove) {
    const acts = actions().filter((a) => !(a.type === 'place_figure' && a.x === undefined));
    const at = acts.findIndex((a) => a.type === 'place_tile');
    acts.splice(at + 1, 0, { type: 'place_figure', kind, feature: name });
    P().question.actions = acts;
    status(`the disputed figure: ${kind} on ${name}`);
    changed({ keepFit: true });
    renderActions();
    return;
  }
  const i = P().figures.findIndex((f) => f.x === x && f.y === y && nameMatches(name, f.feature));
  if (i >= 0) { P().figures.splice(i, 1); changed({ keepFit: true }); return; }
  const owner = parseInt($('fig-owner').value, 10) || 0;
  const fig = { owner, kind, x, y, feature: name };
  if (posture) fig.posture = posture;
  P().figures.push(fig);
  status(`${P().players[owner] ? P().players[owner].name : 'player ' + owner}'s ${kind} on ${name} of (${x}, ${y})`);
  changed({ keepFit: true });
}

function dropOn(x, y) {
  const d = S.drag;
  S.drag = null;
  if (!d || (d.x === x && d.y === y) || tileAt(x, y)) return;
  const t = tileAt(d.x, d.y);
  if (!t) return;
  t.x = x; t.y = y;
  for (const f of P().figures) if (f.x === d.x && f.y === d.y) { f.x = x; f.y = y; }
  S.selected = { x, y };
  status(`moved tile ${t.tile} to (${x}, ${y})`);
  setTimeout(() => changed(), 0);  // after the click that follows the mouseup
  S.drag = { x, y, justDropped: true };
  setTimeout(() => { S.drag = null; }, 0);
}
document.addEventListener('mouseup', () => { if (S.drag && !S.drag.justDropped) setTimeout(() => { S.drag = null; }, 0); });

function rotateSelected() {
  const t = S.selected && tileAt(S.selected.x, S.selected.y);
  if (!t) return;
  t.rotation = ((t.rotation || 0) + 90) % 360;
  // Figures keep their feature only if it still exists under that name; others are dropped.
  const names = featuresOf(t.tile, rotOf(t)).map((f) => f.name);
  P().figures = P().figures.filter((f) => !(f.x === t.x && f.y === t.y) || names.some((n) => nameMatches(n, f.feature)));
  status(`tile ${t.tile} at (${t.x}, ${t.y}) rotated ${t.rotation}`);
  changed();
}
function rotateMove() {
  const m = moveAction();
  if (!m) return;
  m.rotation = ((m.rotation || 0) + 90) % 360;
  P().question.actions = actions().filter((a) => !(a.type === 'place_figure' && a.x === undefined));
  status(`the disputed tile rotated ${m.rotation}`);
  changed({ keepFit: true });
  renderActions();
}
function deleteTile(x, y) {
  P().board = P().board.filter((t) => !(t.x === x && t.y === y));
  P().figures = P().figures.filter((f) => !(f.x === x && f.y === y));
  S.selected = null;
  status(`removed the tile at (${x}, ${y})`);
  changed();
}

// What `r` (and the turn button) turns, named in the hint under the board: the disputed tile
// (Disputed tile tool), the board tile just placed or clicked (Tile tool), else the palette's
// tile before it is placed. Choosing a palette tile clears the board selection.
function rotateTarget() {
  if (S.tool === 'move') return moveAction() ? { kind: 'move', text: `r turns the disputed tile ${P().turn.tile || '?'} at (${moveAction().x}, ${moveAction().y}), now ${moveAction().rotation || 0}` } : null;
  if (S.tool !== 'tile') return null;
  const t = S.selected && tileAt(S.selected.x, S.selected.y);
  if (t) return { kind: 'board', text: `r turns tile ${t.tile} at (${t.x}, ${t.y}), now ${t.rotation || 0} (Esc: turn the palette's tile instead)` };
  return { kind: 'palette', text: `r turns the chosen tile ${S.palette} before it is placed, now ${90 * S.paletteRot}` };
}
function rotateNow() {
  const t = rotateTarget();
  if (!t) return;
  if (t.kind === 'move') rotateMove();
  else if (t.kind === 'board') rotateSelected();
  else { S.paletteRot = (S.paletteRot + 1) & 3; changed({ keepFit: true }); }
}
function renderRotateHint() {
  const t = rotateTarget();
  $('r-hint').textContent = t ? t.text : 'r turns nothing with this tool';
  $('btn-rotate').disabled = !t;
}
document.addEventListener('keydown', (ev) => {
  if (ev.target.matches('input, textarea, select')) return;
  if (ev.key === 'r' || ev.key === 'R') {
    rotateNow();
  } else if ((ev.key === 'Delete' || ev.key === 'Backspace') && S.selected) {
    deleteTile(S.selected.x, S.selected.y);
  } else if (ev.key === 'Escape') {
    S.selected = null; S.ghost = null; renderBoard();
  }
});

function setTool(tool) {
  S.tool = tool;
  for (const r of document.querySelectorAll('input[name=tool]')) r.checked = r.value === tool;
  const hints = {
    tile: 'Click (tap) a square to put the chosen tile there, turned to fit; click it again (or r) to turn it; drag to move; Delete removes it. Green: it fits; yellow: another rotation fits; red: it does not (hover: which edge clashes).',
    figure: 'Click (tap) a feature of a tile to put a figure of the chosen owner and kind there (the dots show where, over the tile under the pointer); click it again to take it away.',
    move: 'The disputed move: click a square for the tile in hand, click it again (or r) to turn it, then click a feature of it for the figure.',
    delete: 'Click a tile or a figure to remove it.',
  };
  $('tool-hint').textContent = hints[tool];
  $('figure-form').hidden = tool !== 'figure' && tool !== 'move';
  renderBoard();
  refreshFit();
}

// The model's answer: where the tile being placed fits (BASE-PLACE-EDGE, BASE-PLACE-ADJ).
let fitSeq = 0;
async function refreshFit() {
  const placing = placingTile();
  if (!placing || !S.tiles[placing.id]) { S.fit = null; renderBoard(); return; }
  const key = placing.id + JSON.stringify(P().board);
  if (key === S.fitKey && S.fit) { renderBoard(); return; }
  const seq = ++fitSeq;
  S.fit = null;  // never show the answer for another tile or board
  S.fitKey = '';
  renderBoard();
  try {
    const fit = await api('POST', '/api/fit', { tile: placing.id, board: P().board });
    if (seq !== fitSeq) return;
    S.fit = fit; S.fitKey = key;
  } catch (e) {
    S.fit = null; S.fitKey = '';
  }
  renderBoard();
}

// ---------- expansion forms ----------
// Each enabled expansion's state as a small form writing into the position file's
// `expansions.<id>` (POSITION_FORMAT.md, the modules' READMEs); fields left empty are omitted
// (the module's default). Every field carries the JSON pointer it edits (data-ptr), so the
// server's message about that place is shown beside it. The raw JSON box stays for the rest.
const MESSAGES = ['smallest-road', 'smallest-city', 'monastery', 'extra-tile', 'coats-of-arms', 'knights', 'farmers', 'score-and-return'];
const GIFT_CARDS = ['synod', 'road_sweeper', 'change_position', 'cash_out', 'take_2'];
const XMAS_CARDS = ['3-points', 'double-road', 'city-plus-one', 'monastery-bonus', 'figure-unoccupied-field', 'figure-unoccupied-road',
  'figure-unoccupied-city', 'double-loop-road', 'cancel-attack', 'take-two-tiles', '3-per-arms', '3-per-tile-no-arms', 'return-figure',
  '2-per-figure-in-supply', 'field-lead-bonus', 'tied-field-bonus', 'figure-occupied-field', 'figure-occupied-road', 'figure-occupied-city',
  'figure-occupied-monastery', 'lay-down-road', 'lay-down-city', 'lay-down-monastery', 'advantage-road', 'advantage-city',
  'advantage-monastery', 'swap-monastery', 'swap-city', 'swap-road', 'swap-field', 'force-placement', 'advantage-field'];
// Disputed rulings with readings, written the one way every module reads them (POSITION_FORMAT.md
// "Rule variants"): expansions.<id>.variants {"<RULING-ID>": "<reading>"}. The tables come from
// what each module declares (/api/tiles "variants"): module id -> [{ruling, readings: [adopted, ...]}].
function variantTable(id) {
  const t = {};
  for (const v of (S.variants[id] || [])) t[v.ruling] = v.readings;
  return t;
}
// The Messengers' printing (its own "variant" key: the rules text printed, not a disputed ruling).
const MSG_PRINTINGS = ['c3', 'c2-printed-alone', 'original-unlimited-chain', 'revision-2025'];
// The disputed rulings of `table` as selects under expansions.<id>.variants, folded away.
function variantsBox(base, table) {
  const v = el('details', {}, el('summary', {}, 'Variants (disputed rulings)'));
  for (const [k, vals] of Object.entries(table))
    v.append(field(k, [...base, 'variants', k], 'select', { values: vals, none: `(adopted: ${vals[0]})` }));
  return v;
}

function expState(id) {
  const p = P();
  if (!p.expansions || typeof p.expansions !== 'object') p.expansions = {};
  if (!p.expansions[id] || typeof p.expansions[id] !== 'object') p.expansions[id] = {};
  return p.expansions[id];
}
// Drops empty objects/arrays left by the forms, so an untouched form writes nothing.
function pruneExpansions() {
  const p = P();
  if (!p.expansions) return;
  for (const [id, st] of Object.entries(p.expansions)) {
    if (st && typeof st === 'object' && !Array.isArray(st)) {
      for (const [k, v] of Object.entries(st)) if (v && typeof v === 'object' && !Array.isArray(v) && !Object.keys(v).length) delete st[k];
      if (!Object.keys(st).length) delete p.expansions[id];
    }
  }
  if (!Object.keys(p.expansions).length) delete p.expansions;
}
function setPath(obj, path, value) {
  let o = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i];
    if (o[k] === undefined || o[k] === null || typeof o[k] !== 'object') o[k] = typeof path[i + 1] === 'number' ? [] : {};
    o = o[k];
  }
  const last = path[path.length - 1];
  if (value === undefined) { if (Array.isArray(o)) o[last] = null; else delete o[last]; } else o[last] = value;
}
function getPath(obj, path) {
  let o = obj;
  for (const k of path) { if (o === undefined || o === null) return undefined; o = o[k]; }
  return o;
}
const asText = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
const listText = (v) => (Array.isArray(v) ? v.map(asText).join(', ') : v === undefined || v === null ? '' : asText(v));
// A select shows what the position holds: the option `key` stands for (the default's when the
// value is left out), else an option marked "as written" (disabled: picking another writes that
// one), never another option's value. keyOf: the option a text value stands for, null for any
// other kind of value.
const keyOf = (v, dflt) => (v === undefined ? dflt : typeof v === 'string' ? v : null);
function showValue(sel, value, key) {
  for (const o of [...sel.querySelectorAll('option[data-as-written]')]) o.remove();
  if (key !== null && key !== undefined && [...sel.options].some((o) => o.value === key)) { sel.value = key; return; }
  sel.append(el('option', { 'data-as-written': '1', disabled: '' }, value === undefined ? '(left out)' : `${JSON.stringify(value)} (as written)`));
  sel.selectedIndex = sel.options.length - 1;
}
// A whole number as typed, else the text itself: "12abc", "1.5", "1e3" or "007" stay text,
// which the server refuses naming the field, never read as 12, 1 or 7 (a number in a line or a
// file has no leading zero); so do digits beyond what a JavaScript number holds exactly. The
// number boxes are text boxes, so that what was typed reaches here (a number box reads "abc" as
// "" and "1e3" as a number).
const intOf = (text) => (/^-?(0|[1-9]\d*)$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text);
// A list typed in a box: items separated by commas or spaces, each as intOf reads it. An empty
// item ("12,,9", "12,9,") is kept as "" (the server refuses it), never dropped to read [12, 9];
// listGap names it for the page.
const listItems = (text) => text.trim().split(/\s*,\s*|\s+/);
const parseList = (text) => listItems(text).map(intOf);
function listGap(text) {
  const i = listItems(text).indexOf('');
  return text.trim() && i >= 0 ? `item ${i + 1} is empty` : '';
}

// One field: an input or select bound to `path` in the position file, with its error slot.
function field(label, path, kind, opts) {
  const o = opts || {};
  const ptr = '/' + path.join('/');
  const cur = getPath(P(), path);
  let input;
  if (kind === 'select') {
    input = el('select', { 'data-ptr': ptr });
    input.append(el('option', { value: '' }, o.none || '(default)'));
    for (const v of o.values) input.append(el('option', { value: v }, v));
    showValue(input, cur, keyOf(cur, ''));
  } else {
    input = el('input', { 'data-ptr': ptr, placeholder: o.placeholder || '', size: o.size || (kind === 'number' ? 4 : 22), type: 'text', list: o.list });
    input.value = kind === 'list' ? listText(cur) : cur === undefined ? '' : asText(cur);
  }
  input.addEventListener('change', () => {
    const v = input.value.trim();
    let value;
    if (v === '') value = undefined;
    else if (kind === 'number') value = intOf(v);
    else if (kind === 'list') value = o.word && v === o.word ? v : parseList(v);
    else value = v;
    if (kind === 'number' && value === undefined && o.zero) value = 0;
    if (o.set) o.set(value); else setPath(P(), path, value);
    if (o.hole) {
      // A per-player list: every player has an entry (the module reads one per player).
      const k = path.findIndex((q) => typeof q === 'number');
      const arr = getPath(P(), path.slice(0, k));
      if (Array.isArray(arr)) {
        while (arr.length < P().players.length) arr.push(undefined);
        for (let j = 0; j < arr.length; j++) if (arr[j] === undefined || arr[j] === null) arr[j] = o.hole();
      }
    }
    pruneExpansions();
    syncJson();
    $('expansion-state').value = P().expansions ? JSON.stringify(P().expansions, null, 1) : '';
    validateSoon();
  });
  return el('label', { class: 'xf' + (o.inline ? ' inline' : '') }, label ? el('span', { class: 'xl' }, label) : null, input, el('span', { class: 'field-error', 'data-for': ptr }));
}
// A list of names (cards, messages) chosen from what the module declares: the chosen ones in
// order as chips (× takes one away), a select adds one at the end. `opts.word`: a word the list
// may be instead (a deck's "rest"), offered as a checkbox. Bound to `path` like field().
function pickList(label, path, names, opts) {
  const o = opts || {};
  const ptr = '/' + path.join('/');
  const box = el('span', { class: 'picks', 'data-ptr': ptr });
  const write = (value) => {
    if (o.hole) {
      const k = path.findIndex((q) => typeof q === 'number');
      setPath(P(), path, value === undefined ? [] : value);
      const arr = getPath(P(), path.slice(0, k));
      if (Array.isArray(arr)) {
        while (arr.length < P().players.length) arr.push(undefined);
        for (let j = 0; j < arr.length; j++) if (arr[j] === undefined || arr[j] === null) arr[j] = o.hole();
        if (arr.every((x) => Array.isArray(x) && !x.length)) setPath(P(), path.slice(0, k), undefined);
      }
    } else setPath(P(), path, value);
    pruneExpansions();
    syncJson();
    $('expansion-state').value = P().expansions ? JSON.stringify(P().expansions, null, 1) : '';
    draw();
    validateSoon();
  };
  const draw = () => {
    box.textContent = '';
    const cur = getPath(P(), path);
    if (o.word) {
      const cb = el('input', { type: 'checkbox', 'data-word': o.word });
      cb.checked = cur === o.word;
      cb.addEventListener('change', () => write(cb.checked ? o.word : undefined));
      box.append(el('label', { class: 'word' }, cb, ' ' + (o.wordLabel || o.word)));
      if (cur === o.word) return;
    }
    if (cur !== undefined && cur !== null && !Array.isArray(cur)) {
      // Not a list of names (a deck of counts, {"synod": 2}, or a misspelt word): shown as
      // written, to edit as JSON, never read as an empty list that a pick would replace.
      box.append(el('code', { class: 'as-written' }, JSON.stringify(cur)), el('span', { class: 'hint' }, ' as written: edit it in the JSON below'));
      return;
    }
    const list = Array.isArray(cur) ? cur : [];
    list.forEach((name, i) => box.append(el('span', { class: 'chip', 'data-name': name }, String(name),
      el('button', { title: 'take it away', onclick: (ev) => { ev.preventDefault(); const l = [...list]; l.splice(i, 1); write(l.length || o.keepEmpty ? l : undefined); } }, '×'))));
    if (!list.length) box.append(el('span', { class: 'hint' }, o.placeholder || 'none'));
    const add = el('select', { class: 'pick-add', 'data-ptr-add': ptr });
    add.append(el('option', { value: '' }, '+ add…'));
    for (const n of names) add.append(el('option', { value: n }, n));
    add.addEventListener('change', () => { if (add.value) write([...list, add.value]); });
    box.append(add);
  };
  draw();
  return el('div', { class: 'xf picklist' }, el('span', { class: 'xl' }, label), box, el('span', { class: 'field-error', 'data-for': ptr }));
}
// The names a module declares for the enumerated arguments (key matching `keyRe`) of its
// actions (type matching `typeRe`), from /api/modules, in the module's order; `fallback` when
// the server declares none.
function declaredNames(id, typeRe, keyRe, fallback) {
  const out = [];
  for (const a of ((S.modules[id] || {}).actions || []))
    if (typeRe.test(a.type))
      for (const g of a.args || []) if (g.names && keyRe.test(g.key)) for (const n of g.names) if (!out.includes(n)) out.push(n);
  return out.length ? out : fallback;
}

function playerName(i) { return (P().players[i] && P().players[i].name) || `P${i}`; }

function messengersForm() {
  const base = ['expansions', 'messengers'];
  const box = el('fieldset', { class: 'xform', 'data-expansion': 'messengers' }, el('legend', {}, 'The Messengers'));
  box.append(field('Printing', [...base, 'variant'], 'select', { values: MSG_PRINTINGS, none: '(c3)' }),
    field('Numbering', [...base, 'numbering'], 'select', { values: ['hig', 'mindok-bb6'], none: '(hig)' }));
  const t = el('table', { class: 'tracks' }, el('tr', {}, el('th', {}, 'scoring track'), el('th', {}, 'meeple'), el('th', {}, 'dame')));
  P().players.forEach((pl, i) => {
    t.append(el('tr', { 'data-player': i }, el('td', {}, playerName(i)),
      el('td', {}, field('', [...base, 'tracks', i, 'meeple'], 'number', { inline: true, placeholder: '0', zero: true, hole: () => ({ meeple: 0, dame: 0 }) })),
      el('td', {}, field('', [...base, 'tracks', i, 'dame'], 'number', { inline: true, placeholder: '0', zero: true, hole: () => ({ meeple: 0, dame: 0 }) }))));
  });
  box.append(t, el('span', { class: 'field-error', 'data-for': '/' + [...base, 'tracks'].join('/') }));
  box.append(el('div', { class: 'hint' }, 'points of each figure; the player\'s score is their sum (plus points waiting for a figure)'));
  const names = declaredNames('messengers', /message/, /^kind$/, MESSAGES);
  box.append(pickList('Message stack (top first)', [...base, 'stack'], names, { placeholder: 'order unknown' }),
    pickList('Used (order unknown only)', [...base, 'used'], names, { placeholder: 'none' }),
    field('Message in hand', [...base, 'in_hand'], 'select', { values: names, none: '(none)' }));
  box.append(variantsBox(base, variantTable('messengers')));
  return box;
}
function giftsForm() {
  const base = ['expansions', 'gifts'];
  const box = el('fieldset', { class: 'xform', 'data-expansion': 'gifts' }, el('legend', {}, 'The Gifts'));
  const cards = declaredNames('gifts', /./, /^card$/, GIFT_CARDS);
  P().players.forEach((pl, i) => box.append(pickList(`${playerName(i)}'s gifts`, [...base, 'hands', i], cards, { placeholder: 'none', hole: () => [], keepEmpty: true })));
  box.append(pickList('Deck (top first)', [...base, 'deck'], cards, { placeholder: 'the rest, order unknown' }),
    pickList('Discards', [...base, 'discards'], cards, { placeholder: 'none' }));
  box.append(variantsBox(base, variantTable('gifts')));
  return box;
}
// The cards of one Christmas deck (/api/modules "decks", the module's card table).
function deckCards(deck, all) {
  const d = ((S.modules.christmas_present || {}).decks || {})[deck];
  return Array.isArray(d) && d.length ? d : all;
}
function christmasForm() {
  const base = ['expansions', 'christmas_present'];
  const box = el('fieldset', { class: 'xform', 'data-expansion': 'christmas_present' }, el('legend', {}, 'Christmas Present'));
  const cards = declaredNames('christmas_present', /./, /^card$/, XMAS_CARDS);
  P().players.forEach((pl, i) => box.append(pickList(`${playerName(i)}'s cards`, [...base, 'hands', i], cards, { placeholder: 'none', hole: () => [], keepEmpty: true })));
  box.append(pickList('Monastery deck (top first)', [...base, 'decks', 'monastery'], deckCards('monastery', cards), { placeholder: 'the rest, order unknown', word: 'rest', wordLabel: 'the rest of the deck, order unknown' }),
    pickList('Road deck (top first)', [...base, 'decks', 'road'], deckCards('road', cards), { placeholder: 'the rest, order unknown', word: 'rest', wordLabel: 'the rest of the deck, order unknown' }),
    pickList('Discard pile', [...base, 'discard'], cards, { placeholder: 'empty', word: 'rest', wordLabel: 'every card not elsewhere' }));
  box.append(variantsBox(base, variantTable('christmas_present')));
  return box;
}
function phantomForm() {
  const box = el('fieldset', { class: 'xform', 'data-expansion': 'phantom' }, el('legend', {}, 'Phantom'));
  box.append(el('div', { class: 'hint' }, 'each player\'s phantom is a figure of kind "phantom" (Figure tool); its supply:'));
  P().players.forEach((pl, i) => box.append(field(`${playerName(i)}: phantom in supply`, ['players', i, 'supply', 'phantom'], 'number', {
    placeholder: 'auto', set: (value) => {
      const q = P().players[i];
      if (value === undefined) { if (q.supply) { delete q.supply.phantom; if (!Object.keys(q.supply).length) delete q.supply; } }
      else { q.supply = q.supply || {}; q.supply.phantom = value; }
    } })));
  return box;
}
const EXP_FORMS = { phantom: phantomForm, messengers: messengersForm, gifts: giftsForm, christmas_present: christmasForm };
function renderExpansionForms() {
  const box = $('expansion-forms');
  box.textContent = '';
  for (const id of (P().rules && P().rules.expansions) || []) if (EXP_FORMS[id]) box.append(EXP_FORMS[id]());
  if (!box.children.length) box.append(el('p', { class: 'hint' }, 'no expansion enabled (Rules)'));
}

// The server's check of the position as it stands (`carc validate`'s answer), its message
// shown beside the field whose JSON pointer it names (the longest one that is a prefix).
let validateTimer = null, validateSeq = 0;
function validateSoon() { clearTimeout(validateTimer); validateTimer = setTimeout(validateNow, 250); }
function showFieldErrors(list) {
  for (const e of document.querySelectorAll('.field-error')) { e.textContent = ''; e.parentElement.classList.remove('has-error'); }
  const general = [];
  for (const { ptr, text } of list) {
    let best = null;
    for (const e of document.querySelectorAll('.field-error[data-for]')) {
      const f = e.getAttribute('data-for');
      if (ptr && (ptr === f || ptr.startsWith(f + '/')) && (!best || f.length > best.getAttribute('data-for').length)) best = e;
    }
    if (best) { best.textContent = (best.textContent ? best.textContent + '; ' : '') + text; best.parentElement.classList.add('has-error'); }
    else general.push(ptr ? `${ptr}: ${text}` : text);
  }
  $('expansion-error').textContent = general.join('\n');
}
async function validateNow() {
  const seq = ++validateSeq;
  const doc = JSON.parse(JSON.stringify(P()));
  doc.question = { ask: 'validate' };
  try {
    const out = await api('POST', '/api/validate', doc);
    if (seq !== validateSeq) return;
    const errs = [];
    for (const v of out.ruling.violations || []) {
      const m = /^(\/\S*)/.exec(v.where || '');
      errs.push({ ptr: m ? m[1] : null, text: `${v.text} [${v.ruling}]` });
    }
    showFieldErrors(errs);
  } catch (e) {
    if (seq !== validateSeq) return;
    const m = /^[^:]*:(\/[^:\s]*): (.*)$/s.exec(e.message);
    showFieldErrors([{ ptr: m ? m[1] : null, text: m ? m[2] : e.message }]);
  }
}

// ---------- forms ----------
// The rules as the position states them, each left out shown as the model's default for the
// edition (under C1 the farm scoring has none, the city scoring is the two-tile city).
function renderRules() {
  const r = P().rules, opts = r.options || {};
  showValue($('edition'), r.edition, keyOf(r.edition, 'C3'));
  const c1 = r.edition === 'C1';
  showValue($('farm-scoring'), opts.farm_scoring, keyOf(opts.farm_scoring, c1 ? undefined : 'per-farm'));
  showValue($('city-scoring'), opts.city_scoring, keyOf(opts.city_scoring, c1 ? 'c1-two-tile-city' : 'standard'));
}
function renderForms() {
  const p = P();
  renderRules();
  const exps = $('expansions');
  exps.textContent = '';
  for (const id of S.expansionIds) {
    const cb = el('input', { type: 'checkbox', value: id, 'data-expansion': id });
    cb.checked = (p.rules.expansions || []).includes(id);
    cb.addEventListener('change', () => {
      // Only this expansion is added or taken away: the rest of the list stays as written (a
      // name the page does not know, one given twice), for the server to judge.
      const list = [...(p.rules.expansions || [])];
      if (!cb.checked) p.rules.expansions = list.filter((e) => e !== id);
      else if (!list.includes(id)) {
        const after = list.findIndex((e) => S.expansionIds.indexOf(e) > S.expansionIds.indexOf(id));
        list.splice(after < 0 ? list.length : after, 0, id);
        p.rules.expansions = list;
      }
      renderFigureKinds();
      renderExpansionForms();
      renderSteps();
      renderActionPicker();
      syncJson();
      validateSoon();
    });
    exps.append(el('label', {}, cb, ' ' + id));
  }
  const tbody = $('players').querySelector('tbody');
  tbody.textContent = '';
  p.players.forEach((pl, i) => {
    const name = el('input', { value: pl.name === undefined ? '' : asText(pl.name), 'data-player': i, class: 'pname' });
    name.addEventListener('input', () => { pl.name = name.value; renderPlayerSelects(); syncJson(); });
    name.addEventListener('change', () => renderExpansionForms());
    const score = el('input', { type: 'text', size: 4, value: pl.score === undefined ? 0 : asText(pl.score), class: 'pscore' });
    score.addEventListener('input', () => {
      // An empty box is the format's default (0, the field left out); other text is kept.
      const v = score.value.trim();
      if (v === '') delete pl.score; else pl.score = intOf(v);
      syncJson();
      if ((p.rules.expansions || []).length) validateSoon();
    });
    const sup = pl.supply && pl.supply.meeple !== undefined ? asText(pl.supply.meeple) : '';
    const meeples = el('input', { type: 'text', size: 4, value: sup, placeholder: 'auto' });
    meeples.addEventListener('input', () => {
      if (meeples.value === '') { if (pl.supply) { delete pl.supply.meeple; if (!Object.keys(pl.supply).length) delete pl.supply; } }
      else { pl.supply = pl.supply || {}; pl.supply.meeple = intOf(meeples.value.trim()); }
      syncJson();
    });
    const del = el('button', { title: 'remove this player', onclick: () => {
      if (p.players.length <= 1) return;
      p.players.splice(i, 1);
      p.figures = p.figures.filter((f) => f.owner !== i).map((f) => (f.owner > i ? { ...f, owner: f.owner - 1 } : f));
      if ((p.turn.player || 0) >= p.players.length) p.turn.player = 0;
      renderForms(); changed();
    } }, '×');
    tbody.append(el('tr', {}, el('td', {}, name), el('td', {}, score), el('td', {}, meeples), el('td', {}, del)));
  });
  renderPlayerSelects();
  renderSteps();
  const hand = $('turn-tile');
  hand.textContent = '';
  hand.append(el('option', { value: '' }, '(none)'));
  for (const id of S.order) hand.append(el('option', { value: id }, id));
  const tile = p.turn.tile;
  showValue(hand, tile, tile === undefined ? '' : typeof tile === 'string' && S.tiles[tile] ? tile : null);
  // The placed tile as "x,y" when it is {x, y}, else as written.
  const placed = p.turn.placed;
  const xy = isObject(placed) && Object.keys(placed).sort().join() === 'x,y';
  $('turn-placed').value = placed === undefined ? '' : xy ? `${asText(placed.x)},${asText(placed.y)}` : asText(placed);
  $('supply-mode').value = p.supply && p.supply.remaining === 'rest' ? 'rest' : 'keep';
  const q = p.question || {};
  showValue($('ask'), q.ask, keyOf(q.ask, p.question ? undefined : 'apply'));
  renderQuestionForm();
  const claim = q.claim || {};
  showValue($('claim-legal'), claim.legal, claim.legal === undefined ? '' : typeof claim.legal === 'boolean' ? String(claim.legal) : null);
  $('claim-scores').value = listText(claim.scores);
  $('claim-scores-error').textContent = '';
  $('expansion-state').value = p.expansions ? JSON.stringify(p.expansions, null, 1) : '';
  renderExpansionForms();
  showFieldErrors([]);
  renderFigureKinds();
  renderActionPicker();
  renderActions();
}

// The question decides the form: a final-scoring question has no tile in hand, no moves and no
// step to choose (the position is at final_scoring); a validity question asks nothing more.
function setAsk(ask) {
  const p = P();
  const claim = p.question && p.question.claim;
  if (ask === 'final_score' || ask === 'validate') {
    p.question = { ask };
    if (ask === 'final_score' && claim && claim.scores) p.question.claim = { scores: claim.scores };
    if (ask === 'final_score') {
      p.turn = { player: p.turn.player || 0, step: 'final_scoring' };
      if (p.supply && p.supply.remaining === 'rest') p.supply = { draw_order: [] };  // no tile left to draw
    }
  } else {
    p.question = { ...(p.question || {}), ask };
    if (ask === 'legal') { delete p.question.actions; delete p.question.claim; }
    if (['final_scoring', 'game_over'].includes(p.turn.step)) p.turn.step = 'place_tile';
  }
  if (ask !== 'apply' && S.tool === 'move') setTool('tile');
  renderForms();
  changed();
  $('legal').hidden = true;
}
const CORE_STEPS = ['draw', 'place_tile', 'place_figure', 'final_scoring', 'game_over'];
function renderSteps() {
  const sel = $('turn-step');
  sel.textContent = '';
  const steps = [...CORE_STEPS];
  if ((P().rules.expansions || []).includes('phantom')) steps.splice(3, 0, 'place_phantom');
  const cur = (P().turn && P().turn.step) || '';
  if (cur && !steps.includes(cur)) steps.push(cur);
  sel.append(el('option', { value: '' }, '(as the position says)'));
  for (const st of steps) sel.append(el('option', { value: st }, st));
  sel.value = cur;
}
function renderQuestionForm() {
  const ask = (P().question && P().question.ask) || 'apply';
  for (const e of document.querySelectorAll('[data-for-ask]')) e.hidden = !e.getAttribute('data-for-ask').split(' ').includes(ask);
  const step = (P().turn && P().turn.step) || '';
  for (const e of document.querySelectorAll('[data-for-step]')) e.hidden = !e.getAttribute('data-for-step').split(' ').includes(step) && !(P().turn && P().turn.placed);
  $('btn-legal').hidden = ask === 'final_score' || ask === 'validate';
  for (const r of document.querySelectorAll('input[name=tool][value=move]')) r.parentElement.hidden = ask !== 'apply';
}

function renderPlayerSelects() {
  const names = P().players.map((pl, i) => pl.name || `P${i}`);
  const owner = $('fig-owner').value || 0;
  for (const id of ['turn-player', 'fig-owner']) {
    $(id).textContent = '';
    names.forEach((n, i) => $(id).append(el('option', { value: i }, n)));
  }
  $('fig-owner').value = Math.min(parseInt(owner, 10) || 0, names.length - 1);
  // Whose turn as the position says: a player it does not have (5 of 2, "1") is shown as
  // written, not as the last player.
  const v = P().turn.player;
  showValue($('turn-player'), v, v === undefined ? '0' : Number.isInteger(v) && v >= 0 && v < names.length ? String(v) : null);
}
function renderFigureKinds() {
  const s = $('fig-kind');
  const was = s.value;
  s.textContent = '';
  const kinds = [...FIGURE_KINDS['']];  // the core's, then each enabled module's (/api/modules)
  for (const e of P().rules.expansions || []) for (const k of FIGURE_KINDS[e] || []) kinds.push(k);
  for (const k of kinds) s.append(el('option', { value: k }, k));
  if (kinds.includes(was)) s.value = was;
}
// A figure named by its role on the feature, as the verdict names it: a meeple on a road is a
// thief; another kind keeps its name with the role after it (phantom thief).
function figureRole(kind, feature) {
  const role = { road: 'thief', city: 'knight', field: 'farmer', monastery: 'monk' }[String(feature || '').split(':')[0]];
  if (!role) return kind;
  return kind === 'meeple' ? role : `${kind} ${role}`;
}
function describeAction(a) {
  if (a.type === 'place_tile') return `place tile ${P().turn.tile || '?'} at (${a.x}, ${a.y}) rotated ${a.rotation || 0}`;
  if (a.type === 'place_figure') return `place ${figureRole(a.kind || 'meeple', a.feature)} on ${a.feature}` + (a.x !== undefined ? ` of (${a.x}, ${a.y})` : '');
  if (a.type === 'pass') return 'pass (declines the choice of its step)';
  return JSON.stringify(a);
}
function renderActions() {
  const ol = $('actions');
  ol.textContent = '';
  actionList().forEach((a, i) => {
    ol.append(el('li', { 'data-action': a.type }, describeAction(a),
      el('button', { title: 'remove', onclick: () => { actions().splice(i, 1); changed({ keepFit: true }); renderActions(); } }, '×')));
  });
  if (!actionList().length) ol.append(el('li', { class: 'hint' }, 'no move yet: use the "Disputed tile" tool, or add an action'));
}

// The enabled modules' actions (/api/modules): a type chosen from a list, each argument from
// what it takes (a card or message by name, a player, a figure kind, a tile, a square).
function renderActionPicker() {
  const sel = $('action-type');
  const was = sel.value;
  sel.textContent = '';
  sel.append(el('option', { value: '' }, '+ an expansion action…'));
  for (const id of P().rules.expansions || [])
    for (const a of (S.modules[id] || {}).actions || []) sel.append(el('option', { value: a.type, title: a.summary || '' }, `${a.type} (${id})`));
  sel.value = [...sel.options].some((o) => o.value === was) ? was : '';
  sel.hidden = sel.options.length <= 1;
  renderActionArgs();
}
function actionDecl(type) {
  for (const d of Object.values(S.modules)) for (const a of d.actions || []) if (a.type === type) return a;
  return null;
}
function renderActionArgs() {
  const box = $('action-args');
  box.textContent = '';
  const d = actionDecl($('action-type').value);
  if (!d) return;
  const getters = [];
  const num = (ph) => el('input', { type: 'text', size: 4, placeholder: ph, class: 'num' });
  for (const g of d.args) {
    const key = g.key || '';
    if (key === 'type') continue;  // the action's own type (a card's name is its type)
    let input, get;
    if (g.type === 'enum') {
      input = el('select', {}, el('option', { value: '' }, g.optional ? '(none)' : '(choose)'), ...(g.names || []).map((n) => el('option', { value: n }, n)));
      get = () => input.value || undefined;
    } else if (g.type === 'player') {
      input = el('select', {}, el('option', { value: '' }, '(choose)'), ...P().players.map((pl, i) => el('option', { value: i }, playerName(i))));
      get = () => (input.value === '' ? undefined : parseInt(input.value, 10));
    } else if (g.type === 'figure_kind') {
      const kinds = [...FIGURE_KINDS['']]; for (const e of P().rules.expansions || []) kinds.push(...(FIGURE_KINDS[e] || []));
      input = el('select', {}, el('option', { value: '' }, '(choose)'), ...kinds.map((k) => el('option', { value: k }, k)));
      get = () => input.value || undefined;
    } else if (g.type === 'tile') {
      input = el('select', {}, el('option', { value: '' }, '(choose)'), ...S.order.map((t) => el('option', { value: t }, t)));
      get = () => input.value || undefined;
    } else if (g.type === 'int') {
      input = num('');
      get = () => (input.value.trim() === '' ? undefined : intOf(input.value.trim()));
    } else {  // a square, or a feature {x, y, feature}
      const x = num('x'), y = num('y');
      const f = g.type === 'square' ? null : el('input', { placeholder: 'feature, e.g. road:EW', size: 12 });
      input = el('span', {}, x, y, f);
      // Left out when nothing is typed; a place typed in part (x without y, a feature without
      // its square) is refused naming the empty box, never left out of the action.
      get = () => {
        const xs = x.value.trim(), ys = y.value.trim(), fs = f ? f.value.trim() : '';
        if (xs === '' && ys === '' && fs === '') return undefined;
        if (xs === '' || ys === '') throw new Error(`${key || 'where'}: ${xs === '' ? 'x' : 'y'} is empty`);
        const v = { x: intOf(xs), y: intOf(ys) };
        if (fs) v.feature = fs;
        return v;
      };
    }
    getters.push([key, get]);
    box.append(el('label', { class: 'xf' }, el('span', { class: 'xl' }, (key || 'where') + (g.optional ? ' (optional)' : '')), input));
  }
  box.append(el('button', { onclick: () => {
    const a = { type: d.type };
    try {
      for (const [key, get] of getters) {
        const v = get();
        if (v === undefined) continue;
        if (key === '' && typeof v === 'object') Object.assign(a, v); else a[key] = v;
      }
    } catch (e) { status(`${d.type}: ${e.message}`, true); return; }
    actions().push(a); renderActions(); syncJson(); status('added to the question: ' + describeAction(a));
  } }, '+ add ' + d.type));
}

function bindForms() {
  const p = () => P();
  $('edition').addEventListener('change', (e) => { p().rules.edition = e.target.value; renderRules(); syncJson(); });
  $('farm-scoring').addEventListener('change', (e) => { p().rules.options = { ...(p().rules.options || {}), farm_scoring: e.target.value }; syncJson(); });
  $('city-scoring').addEventListener('change', (e) => { p().rules.options = { ...(p().rules.options || {}), city_scoring: e.target.value }; syncJson(); });
  $('btn-add-player').addEventListener('click', () => {
    if (p().players.length >= 6) return;
    p().players.push({ name: `P${p().players.length}`, score: 0 });
    renderForms(); syncJson();
  });
  $('turn-player').addEventListener('change', (e) => { p().turn.player = parseInt(e.target.value, 10); syncJson(); renderBoard(); });
  $('turn-step').addEventListener('change', (e) => {
    if (e.target.value) p().turn.step = e.target.value; else delete p().turn.step;
    renderQuestionForm();
    syncJson();
  });
  $('turn-tile').addEventListener('change', (e) => {
    // A tile in hand is a tile drawn: the step is then place_tile (and draw without one).
    if (e.target.value) { p().turn.tile = e.target.value; if (!p().turn.step || p().turn.step === 'draw') p().turn.step = 'place_tile'; }
    else { delete p().turn.tile; if (p().turn.step === 'place_tile') p().turn.step = 'draw'; }
    renderSteps();
    renderQuestionForm();
    changed();
  });
  $('turn-placed').addEventListener('change', (e) => {
    const m = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*$/.exec(e.target.value);
    // Text that is not "x,y" is kept as typed, which the server refuses naming /turn/placed.
    if (m) p().turn.placed = { x: intOf(m[1]), y: intOf(m[2]) };
    else if (e.target.value.trim()) p().turn.placed = e.target.value.trim();
    else delete p().turn.placed;
    syncJson();
  });
  $('supply-mode').addEventListener('change', (e) => {
    if (e.target.value === 'rest') p().supply = { remaining: 'rest' };
    syncJson();
  });
  $('ask').addEventListener('change', (e) => { setAsk(e.target.value); });
  // Each box writes its own part of the claim; the rest of it (its "events", the claims the
  // boxes do not show) is kept as the position has it.
  const setClaim = (key, value) => {
    if (!p().question) p().question = { ask: 'apply' };
    const claim = { ...(p().question.claim || {}) };
    if (value === undefined) delete claim[key]; else claim[key] = value;
    if (Object.keys(claim).length) p().question.claim = claim; else delete p().question.claim;
    syncJson();
  };
  $('claim-legal').addEventListener('change', () => {
    const legal = $('claim-legal').value;
    setClaim('legal', legal ? legal === 'true' : undefined);
  });
  $('claim-scores').addEventListener('input', () => {
    const scores = $('claim-scores').value;
    // A number as typed: "12abc" or "1.5" stays text and an empty item ("12,,9") "", which the
    // server refuses naming it, never read as 12, 1 or [12, 9]; the page names the empty item.
    $('claim-scores-error').textContent = listGap(scores) && `claimed scores: ${listGap(scores)}`;
    setClaim('scores', scores.trim() ? parseList(scores) : undefined);
  });
  $('btn-pass').addEventListener('click', () => { actions().push({ type: 'pass' }); renderActions(); syncJson(); });
  $('action-type').addEventListener('change', renderActionArgs);
  $('btn-add-action').addEventListener('click', () => {
    try {
      const a = strictJson($('action-json').value, 'action');
      if (!a || typeof a !== 'object' || Array.isArray(a)) throw new Error('an action is a JSON object');
      actions().push(a); $('action-json').value = ''; renderActions(); syncJson(); status('');
    } catch (e) { status('action: ' + e.message, true); }
  });
  $('expansion-state').addEventListener('change', (e) => {
    const v = e.target.value.trim();
    try {
      if (!v) delete p().expansions;
      else {
        const x = strictJson(v, 'expansions');
        checkExpansions(x, (ptr, what) => { throw new Error(`expansions:${ptr || '/'}: ${what}`); }, '');
        p().expansions = x;
      }
      renderExpansionForms(); syncJson(); status(''); validateSoon();
    } catch (err) { status('expansion state: ' + err.message, true); }
  });
  for (const r of document.querySelectorAll('input[name=tool]')) r.addEventListener('change', () => setTool(r.value));
  $('btn-adjudicate').addEventListener('click', adjudicate);
  $('btn-legal').addEventListener('click', legalMoves);
  $('btn-download').addEventListener('click', download);
  $('file-open').addEventListener('change', openFile);
  $('btn-link').addEventListener('click', shareLink);
  $('btn-new').addEventListener('click', () => { load(newPosition()); status('a new position'); });
  $('btn-json-apply').addEventListener('click', () => {
    try { load(strictJson($('pos-json').value, 'position.json'), 'position.json'); status('the position from the JSON'); }
    catch (e) { status('JSON: ' + e.message, true); }
  });
  $('drawer-close').addEventListener('click', () => { $('drawer').hidden = true; });
  $('btn-line-apply').addEventListener('click', () => useLine($('pos-line').value));
  $('pos-line').addEventListener('keydown', (e) => { if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); useLine($('pos-line').value); } });
  $('pos-line').addEventListener('paste', () => setTimeout(() => useLine($('pos-line').value, 'the position from the pasted line'), 0));
  $('btn-rotate').addEventListener('click', rotateNow);
  $('legal-close').addEventListener('click', () => { $('legal').hidden = true; });
}

function syncJson() {
  const text = JSON.stringify(P(), null, 2);
  const ta = $('pos-json');
  if (document.activeElement !== ta) ta.value = text;
  lineSoon();
}

// ---------- the one-line notation (model/core/notation.h, as `carc convert --to line`) ----------
// The box under the board follows the board (the server writes the line); a line typed or
// pasted there replaces the position. The address bar carries the line, readable.
let lineTimer = null, lineSeq = 0;
function lineSoon() { clearTimeout(lineTimer); lineTimer = setTimeout(refreshLine, 120); }
async function refreshLine() {
  const seq = ++lineSeq;
  try {
    const out = await api('POST', '/api/line', P());
    if (seq !== lineSeq) return;
    S.line = out.line;
    if (document.activeElement !== $('pos-line')) $('pos-line').value = out.line;
    $('line-error').textContent = '';
    if (!location.hash || location.hash === '#/' || location.hash.startsWith('#line=') || location.hash.startsWith('#p=') || location.hash.startsWith('#j='))
      history.replaceState(null, '', '#' + lineHash(out.line));
  } catch (e) {
    if (seq === lineSeq) { S.line = ''; $('line-error').textContent = 'no line for this position: ' + e.message; }
  }
  document.body.setAttribute('data-line-seq', String(seq));
}
// A line in a URL fragment, readable: only what must be escaped is (spaces as +).
function lineHash(line) {
  return 'line=' + encodeURIComponent(line).replace(/%20/g, '+').replace(/%2C/gi, ',').replace(/%2F/gi, '/')
    .replace(/%3A/gi, ':').replace(/%3B/gi, ';').replace(/%3D/gi, '=');
}
function hashLine(hash) { return decodeURIComponent(hash.slice('line='.length).replace(/\+/g, ' ')); }
async function positionOfLine(line) { return (await api('POST', '/api/position', line)).position; }
async function useLine(line, what) {
  try {
    load(await positionOfLine(line), 'line');
    $('line-error').textContent = '';
    status(what || 'the position from the line');
    return true;
  } catch (e) {
    $('line-error').textContent = e.message;
    status('the line is not read: ' + e.message, true);
    return false;
  }
}

// A JSON value's kind as the model names it in its messages ("expected an array, got object").
function jsonKind(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' ? 'number' : typeof v;
}
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const ptrKey = (k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');
// The expansion state (`expansions`): an object of one object per expansion, as the model
// reads it; anything else is refused naming its pointer, never replaced by the forms.
// `base`: its pointer ('' in the box that holds it alone).
function checkExpansions(x, fail, base) {
  if (!isObject(x)) fail(base, `expected an object, got ${jsonKind(x)}`);
  for (const [id, st] of Object.entries(x)) if (!isObject(st)) fail(base + '/' + ptrKey(id), `expected an object, got ${jsonKind(st)}`);
}
// The parts of a position file the page reads and draws, checked before the page takes it: a
// part of another shape ("players": {}, "board": "x", a question's "actions": {}) was read as
// empty or as the default, and a tile the board cannot draw as written (rotation 45, tile "Z",
// x "1") as another. Each is refused as the model refuses it, naming its JSON pointer; what
// the page keeps as written (a name, a score, an unknown step) the server judges.
function checkPosition(doc, fail) {
  const kind = jsonKind;
  const obj = (v, ptr) => { if (!isObject(v)) fail(ptr, `expected an object, got ${kind(v)}`); };
  const arr = (v, ptr) => { if (!Array.isArray(v)) fail(ptr, `expected an array, got ${kind(v)}`); };
  const whole = (o, k, ptr) => {
    if (o[k] === undefined) fail(ptr + '/' + k, 'missing');
    if (!Number.isSafeInteger(o[k])) fail(ptr + '/' + k, `expected a whole number, got ${typeof o[k] === 'number' ? o[k] : kind(o[k])}`);
  };
  const rotation = (o, ptr) => {
    if (o.rotation === undefined) return;
    if (![0, 90, 180, 270].includes(o.rotation)) fail(ptr + '/rotation', `expected 0, 90, 180 or 270, got ${typeof o.rotation === 'number' ? o.rotation : kind(o.rotation)}`);
  };
  const optional = (o, k, check, ptr) => { if (o[k] !== undefined) check(o[k], ptr + '/' + k); };
  if (!isObject(doc)) fail('', `a position file is a JSON object, got ${kind(doc)}`);
  for (const k of ['rules', 'players', 'board']) if (doc[k] === undefined) fail('/' + k, 'missing');
  obj(doc.rules, '/rules');
  optional(doc.rules, 'expansions', arr, '/rules');
  optional(doc.rules, 'options', obj, '/rules');
  arr(doc.players, '/players');
  if (doc.players.length < 1 || doc.players.length > 6) fail('/players', `expected 1 to 6 players, got ${doc.players.length}`);
  doc.players.forEach((pl, i) => { obj(pl, `/players/${i}`); optional(pl, 'supply', obj, `/players/${i}`); });
  arr(doc.board, '/board');
  doc.board.forEach((t, i) => {
    const ptr = `/board/${i}`;
    obj(t, ptr);
    if (t.tile === undefined) fail(ptr + '/tile', 'missing');
    if (typeof t.tile !== 'string' || !S.tiles[t.tile]) fail(ptr + '/tile', `unknown tile ${JSON.stringify(t.tile)} (base tiles are A to X)`);
    whole(t, 'x', ptr); whole(t, 'y', ptr); rotation(t, ptr);
  });
  optional(doc, 'figures', arr, '');
  (doc.figures || []).forEach((f, i) => { obj(f, `/figures/${i}`); whole(f, 'x', `/figures/${i}`); whole(f, 'y', `/figures/${i}`); whole(f, 'owner', `/figures/${i}`); });
  optional(doc, 'turn', obj, '');
  optional(doc, 'supply', obj, '');
  if (doc.expansions !== undefined) checkExpansions(doc.expansions, fail, '/expansions');
  optional(doc, 'question', obj, '');
  const q = doc.question || {};
  optional(q, 'claim', obj, '/question');
  optional(q, 'actions', arr, '/question');
  (q.actions || []).forEach((a, i) => {
    const ptr = `/question/actions/${i}`;
    obj(a, ptr);
    if (a.type === 'place_tile') { whole(a, 'x', ptr); whole(a, 'y', ptr); rotation(a, ptr); }
  });
}
// Takes a position file (its figures and turn may be left out: none, and the format's
// default), or refuses it as a whole, the page unchanged: `source` names it in the message.
function load(doc, source) {
  checkPosition(doc, (ptr, what) => { throw new Error(`${source || 'position.json'}:${ptr || '/'}: ${what}`); });
  if (doc.figures === undefined) doc.figures = [];
  if (doc.turn === undefined) doc.turn = {};
  S.pos = doc;
  S.selected = null; S.ghost = null; S.fitKey = '';
  $('result').hidden = true; $('legal').hidden = true;
  renderForms();
  changed();
}

// ---------- adjudication ----------
function ridLink(id) {
  return el('a', { class: 'rid', href: '#/ruling/' + encodeURIComponent(id), 'data-ruling': id,
    onclick: (ev) => { ev.preventDefault(); showRulingDrawer(id); } }, id);
}
function reasonItem(r) {
  return el('li', {}, r.ruling ? ridLink(r.ruling) : null, ' ', r.where ? r.where + ': ' : '', r.text || '');
}
function scoreItem(e) {
  const subject = e.feature ? `${e.feature} (${e.cause || ''})` : (e.cause || 'points');
  const who = Array.isArray(e.winner_names) ? e.winner_names.join(', ') : '';
  return el('li', { class: 'score' }, `score ${subject}: ${e.points} to ${who || 'nobody'}`,
    e.formula ? ` = ${e.formula} ` : ' ', ...(e.rulings || []).map((id) => [ridLink(typeof id === 'string' ? id : id.ruling), ' ']));
}

// The ruling's lines, exactly as `carc adjudicate --format text` writes them (verdict_text.cc
// RulingText), each ruling ID a link: the evidence of every score event (the feature's tiles,
// where it ends, the cities a farm supplies and leaves out, the figures by owner, the
// majority), the reasons, the claim, the scores, the cited rulings' titles and summaries.
function verdictLines(r) {
  const L = [];
  const add = (level, text, cls) => L.push({ level, text, cls });
  const dump = (v) => JSON.stringify(v);
  const events = (list, level, prefix) => {
    for (const e of list || []) {
      const subject = e.feature !== undefined ? `${e.feature || ''} (${e.cause || ''})` : (e.cause || '');
      add(level, `${prefix}score ${subject}: ${e.points || 0} to ${dump(e.winner_names || [])} = ${e.formula || ''}  ${dump(e.rulings || [])}`, 'score');
      if (e.receives) add(level + 1, 'receives: ' + e.receives.map((x) => `${x.player || ''} ${x.points || 0}`).join(', '), 'evidence');
      for (const x of e.evidence || []) add(level + 1, x, 'evidence');
    }
  };
  add(0, 'Rules: ' + (r.edition || '') + ((r.expansions || []).length ? ' + ' + dump(r.expansions) : ''), 'head');
  add(0, 'Question: ' + (r.question || ''), 'head');
  if (r.before_question) {
    for (const x of r.before_question.notes || []) add(1, `before the question [${x.ruling || ''}] ${x.text || ''}`);
    events(r.before_question.score_events, 1, 'before the question: ');
  }
  for (const v of r.violations || []) add(1, `[${v.ruling || ''}] ${v.where || ''}: ${v.text || ''}`, 'bad');
  for (const a of r.actions || []) {
    if (a.legal !== undefined) {
      add(1, (a.legal ? 'legal: ' : 'ILLEGAL: ') + (a.description || ''), a.legal ? 'act' : 'act bad');
      for (const x of a.reasons || []) add(2, `[${x.ruling || ''}] ${x.text || ''}`);
      events(a.score_events, 2, '');
      for (const x of a.notes || []) add(2, `note [${x.ruling || ''}] ${x.text || ''}`);
    } else add(1, a.description || '');
  }
  if (r.reasons && !r.actions) for (const x of r.reasons) add(1, `[${x.ruling || ''}] ${x.text || ''}`);
  events(r.score_events, 1, '');
  for (const d of r.divide || []) add(1, `${dump(d.action)}: ${d.count || 0}`);
  if (r.count !== undefined) add(0, 'Count: ' + dump(r.count));
  if (r.claim) {
    add(0, 'Claim: ' + (r.claim.upheld ? 'upheld' : 'rejected'), r.claim.upheld ? 'act' : 'act bad');
    for (const d of r.claim.differences || []) add(1, 'claim: ' + d, 'bad');
    for (const m of r.claim.matched || []) add(1, 'claim: ' + m);
  }
  if (r.pending) add(0, `Pending: the turn stops at step ${r.pending.step || ''}` + (r.pending.why ? `: ${r.pending.why}` : ' (the question states no choice for it)'));
  if (r.scores) add(0, 'Scores: ' + dump(r.scores), 'act');
  if (r.cited) add(0, 'Cited: ' + dump(r.cited));
  return L;
}
// A line's text with each ruling ID a link to the ruling beside the verdict.
function linkedText(text) {
  const out = [];
  let last = 0;
  const re = /\b([A-Z]{2,}(?:-[A-Z0-9]+)+)\b/g;
  for (let m; (m = re.exec(text));) {
    out.push(text.slice(last, m.index), ridLink(m[1]));
    last = m.index + m[1].length;
  }
  out.push(text.slice(last));
  return out;
}

function showRuling(out) {
  const r = out.ruling;
  const v = $('verdict');
  v.textContent = r.verdict || '';
  v.className = ['upheld', 'legal', 'possible'].includes(r.verdict) ? 'good'
    : ['rejected', 'illegal', 'impossible-position'].includes(r.verdict) ? 'bad' : 'neutral';
  const box = $('reasons');
  box.textContent = '';
  // The scores once: the text verdict's line as the CLI writes it, the players' names in its
  // tooltip.
  for (const l of verdictLines(r)) {
    const named = r.scores && l.text === 'Scores: ' + JSON.stringify(r.scores);
    const title = named ? r.scores.map((s, i) => `${(P().players[i] || {}).name || 'P' + i} ${s}`).join(', ') : undefined;
    box.append(el('div', { class: `vline lvl${l.level} ${l.cls || ''}`, id: named ? 'scores' : undefined, title }, ...linkedText(l.text)));
  }
  const rulings = r.rulings || {};
  const cited = (r.cited || []).filter((id) => rulings[id]);
  if (cited.length) {
    const rb = el('div', { class: 'cited' }, el('div', { class: 'vline lvl0' }, 'Rulings:'));
    for (const id of cited) {
      const q = rulings[id];
      rb.append(el('div', { class: 'vline lvl1' }, ridLink(id), `: ${q.title || ''} (${q.status || ''})`),
        el('div', { class: 'vline lvl2 summary' }, q.summary || ''),
        q.source ? el('div', { class: 'vline lvl2 source' }, 'Source: ' + q.source) : null);
    }
    box.append(rb);
  }
  $('ruling-json').textContent = JSON.stringify(r, null, 2);
  $('picture').innerHTML = out.svg || '';
  $('result').hidden = false;
  $('legal').hidden = true;
  S.highlights = out.highlights || null;
  renderBoard();
  const n = S.highlights ? S.highlights.features.length : 0;
  $('hl-note').textContent = n ? `The board marks the verdict's ${n === 1 ? 'feature' : n + ' features'} (numbers: the score events; crossed: a city left out); any edit clears them. The picture below is the position after the question.` : '';
}

async function adjudicate() {
  status('adjudicating…');
  try {
    const out = await api('POST', '/api/adjudicate', P());
    showRuling(out);
    status(`exit code ${out.exit_code} (as \`carc adjudicate\` gives)`);
    if (window.innerWidth <= 720) $('result').scrollIntoView({ block: 'start' });
  } catch (e) {
    $('result').hidden = true;
    status('carc: ' + e.message + (e.exitCode ? ` (exit code ${e.exitCode})` : ''), true);
  }
}

async function legalMoves() {
  const doc = JSON.parse(JSON.stringify(P()));
  delete doc.question;
  try {
    const out = await api('POST', '/api/legal', doc);
    const r = out.ruling;
    const ol = $('legal-list');
    ol.textContent = '';
    if (r.verdict !== 'listed') {
      showRuling(out);
      status('the position cannot arise: no legal moves to list', true);
      return;
    }
    for (const a of r.actions || []) {
      const li = el('li', {}, a.description || JSON.stringify(a.action));
      li.addEventListener('mouseenter', () => {
        const act = a.action;
        S.ghost = act.type === 'place_tile' ? { tile: act.tile || P().turn.tile, x: act.x, y: act.y, rot: ((act.rotation || 0) / 90) & 3 } : null;
        renderBoard();
        if (act.type === 'place_figure' && act.feature) {
          const placed = moveAction() || P().turn.placed;
          for (const c of document.querySelectorAll('#board .anchor'))
            if (nameMatches(c.getAttribute('data-feature'), act.feature) && (!placed || (+c.getAttribute('data-x') === placed.x && +c.getAttribute('data-y') === placed.y))) c.classList.add('mark');
        }
      });
      li.addEventListener('mouseleave', () => { S.ghost = null; renderBoard(); });
      li.addEventListener('click', () => { actions().push(a.action); renderActions(); syncJson(); status('added to the question: ' + (a.description || '')); });
      ol.append(li);
    }
    $('legal').hidden = false;
    $('result').hidden = true;
    $('legal').scrollIntoView({ block: 'nearest' });
    status(`${r.count} legal moves for ${(P().players[r.player] || {}).name || 'the player'} at step ${r.step} (hover to see one, click to add it to the question)`);
  } catch (e) {
    status('carc: ' + e.message, true);
  }
}

// ---------- files and links ----------
function download() {
  const blob = new Blob([JSON.stringify(P(), null, 2) + '\n'], { type: 'application/json' });
  const a = el('a', { href: URL.createObjectURL(blob), download: 'position.json' });
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  status('downloaded position.json: `carc adjudicate position.json` answers it the same');
}
function openFile(ev) {
  const file = ev.target.files[0];
  if (!file) return;
  const reader = new FileReader();
  reader.onload = async () => {
    const text = String(reader.result);
    ev.target.value = '';
    if (!text.trim().startsWith('{')) { await useLine(text, 'opened ' + file.name + ' (a line)'); return; }
    try { load(strictJson(text, file.name), file.name); status('opened ' + file.name); }
    catch (e) { status(e.message.startsWith(file.name + ':') ? e.message : file.name + ': ' + e.message, true); }
  };
  reader.readAsText(file);
}
function b64url(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function unb64url(text) {
  const s = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}
// #p=<deflated, base64url> (or #j=<base64url> where the browser cannot compress).
async function encodePosition(doc) {
  const bytes = new TextEncoder().encode(JSON.stringify(doc));
  if (typeof CompressionStream === 'function') return 'p=' + b64url(await pipe(bytes, new CompressionStream('deflate-raw')));
  return 'j=' + b64url(bytes);
}
// JSON text read as the server reads it (model/core/input_file.h), not as JSON.parse does:
// JSON.parse keeps the last of two keys and reads 12.0 as 12 and 2^53 + 1 as 2^53, so what the
// page then sends is not what was written. A key given twice, or a number that is not a whole
// number a JavaScript number holds exactly, is refused naming its JSON pointer.
function strictJson(text, source) {
  const doc = JSON.parse(text);  // a syntax error first, with the browser's message
  let i = 0;
  const fail = (ptr, what) => { throw new Error(`${source}:${ptr || '/'}: ${what}`); };
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  const str = () => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    return JSON.parse(text.slice(start, ++i));
  };
  const value = (ptr) => {
    ws();
    if (text[i] === '{' || text[i] === '[') {
      const obj = text[i++] === '{', seen = new Set();
      ws();
      if (text[i] === (obj ? '}' : ']')) { i++; return; }
      for (let n = 0; ; n++) {
        let p = ptr + '/' + n;
        if (obj) {
          ws();
          const k = str();
          p = ptr + '/' + k.replace(/~/g, '~0').replace(/\//g, '~1');
          if (seen.has(k)) fail(p, `duplicate key ${JSON.stringify(k)}`);
          seen.add(k);
          ws(); i++;  // the colon
        }
        value(p);
        ws();
        if (text[i++] !== ',') return;
      }
    }
    if (text[i] === '"') { str(); return; }
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m) {
      i += m[0].length;
      if (m[1] || m[2] || !Number.isSafeInteger(Number(m[0])))
        fail(ptr, `${m[0]}: expected a whole number (the page holds integers up to 2^53 exactly; \`carc\` reads the file as written)`);
      return;
    }
    i += /^(true|null)/.test(text.slice(i, i + 4)) ? 4 : 5;  // true, null or false
  };
  value('');
  return doc;
}
async function decodePosition(hash) {
  const [kind, data] = [hash.slice(0, 2), hash.slice(2)];
  let bytes = unb64url(data);
  if (kind === 'p=') bytes = await pipe(bytes, new DecompressionStream('deflate-raw'));
  return strictJson(new TextDecoder().decode(bytes), 'the link');
}
async function shareLink() {
  let hash;
  try { hash = lineHash((await api('POST', '/api/line', P())).line); }
  catch (e) { hash = await encodePosition(P()); }  // a position the notation cannot state
  const link = location.origin + location.pathname + '#' + hash;
  const box = $('share-link');
  box.hidden = false;
  box.value = link;
  box.select();
  try { await navigator.clipboard.writeText(link); status('the link is copied: it carries the whole position as its line'); }
  catch (e) { status('the link carries the whole position as its line: copy it from the box'); }
}

// ---------- rulings ----------
function rulingView(r, compact) {
  const box = el('div', { class: 'ruling', 'data-ruling': r.id });
  box.append(el('h1', {}, r.id, ': ', r.title || ''));
  const src = r.source || {};
  const dl = el('dl', {});
  const row = (k, v) => { if (v !== undefined && v !== null && v !== '') dl.append(el('dt', {}, k), el('dd', {}, v)); };
  row('status', r.status); row('expansion', r.expansion); row('edition', r.edition);
  row('source', [src.page, src.section, src.footnote ? 'footnote ' + src.footnote : null].filter(Boolean).join(' / '));
  if (r.official_answer) row('official answer', [r.official_answer.cited, r.official_answer.date].filter(Boolean).join(', '));
  if ((r.needs_expansion || []).length) row('needs', r.needs_expansion.join(', '));
  box.append(dl);
  box.append(el('p', { class: 'summary' }, r.summary || ''));
  if (r.question) box.append(el('h2', {}, 'Question'), el('p', {}, r.question));
  if (r.reasoning) box.append(el('h2', {}, 'Reasoning'), el('p', {}, r.reasoning));
  if ((r.readings || []).length) {
    box.append(el('h2', {}, 'Readings'));
    for (const rd of r.readings)
      box.append(el('div', { class: 'reading' + (rd.adopted ? ' adopted' : '') }, el('b', {}, rd.name + (rd.adopted ? ' (adopted)' : '')), ': ', rd.summary || '', rd.support ? el('div', { class: 'hint' }, rd.support) : null));
  }
  const links = Object.entries(r.links || {}).filter(([, v]) => v && v.length);
  if (links.length) {
    box.append(el('h2', {}, 'Links'));
    for (const [k, ids] of links) box.append(el('div', {}, k.replace(/_/g, ' ') + ': ', ...ids.map((id) => [ridLink(id), ' '])));
  }
  if (compact) {
    box.append(el('p', {}, el('a', { href: '#/ruling/' + encodeURIComponent(r.id), onclick: () => { $('drawer').hidden = true; } }, 'the ruling\'s page, with its fixtures →')));
    return box;
  }
  box.append(el('h2', {}, `Fixtures (${(r.fixtures || []).length}): worked examples`));
  const list = el('div', {});
  for (const f of r.fixtures || []) {
    const d = el('div', { class: 'fixture' }, el('b', {}, f.title || f.fixture_id || f.path), el('div', { class: 'hint' }, `${f.path}: expected ${f.expected_verdict || ''} (exit ${f.expected_exit_code})`));
    const pic = el('div', {});
    d.append(pic);
    list.append(d);
    fixturePicture(f.path, pic);
  }
  box.append(list);
  return box;
}
async function fixturePicture(path, box) {
  try {
    const out = await api('GET', '/api/fixture?path=' + encodeURIComponent(path));
    if (out.svg) box.innerHTML = out.svg;
    if (out.error) box.append(el('pre', { class: 'error' }, `carc: ${out.error} (exit code ${out.exit_code})`));
    if (out.position) {
      const note = el('span', { class: 'error' });
      box.append(el('button', { onclick: () => {
        try { load(out.position, path); location.hash = '#/'; status('opened ' + path); }
        catch (e) { note.textContent = ' ' + e.message; }
      } }, 'open in the workbench'), note);
    }
  } catch (e) { box.append(el('span', { class: 'hint' }, e.message)); }
}
async function showRulingDrawer(id) {
  const body = $('drawer-body');
  body.textContent = 'loading ' + id + '…';
  $('drawer').hidden = false;
  try { body.textContent = ''; body.append(rulingView(await api('GET', '/api/rulings/' + encodeURIComponent(id)), true)); }
  catch (e) { body.textContent = ''; body.append(el('p', { class: 'error' }, e.message)); }
}
// The search's snippet marks the words that matched in [brackets]: shown highlighted.
function snippetParts(text) {
  return text.split(/(\[[^\]]*\])/).map((part) => (part.startsWith('[') && part.endsWith(']') ? el('mark', {}, part.slice(1, -1)) : part));
}
let searchSeq = 0, searchTimer = null;
function searchSoon() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(runSearch, 120);
}
async function runSearch() {
  const q = $('search').value;
  const seq = ++searchSeq;
  try {
    const out = await api('GET', '/api/rulings/search?limit=30&q=' + encodeURIComponent(q));
    if (seq !== searchSeq) return;
    const ol = $('hits');
    ol.textContent = '';
    for (const h of out.hits) {
      ol.append(el('li', { 'data-ruling': h.id, 'data-status': h.status },
        el('a', { href: '#/ruling/' + encodeURIComponent(h.id), class: 'hit' }, el('b', {}, h.id), ' ', h.title),
        el('span', { class: 'tag ' + (h.status || '').split(':')[0] }, h.status), el('span', { class: 'tag' }, h.expansion),
        Array.isArray(h.matched) && h.matched.length ? el('div', { class: 'matched' }, 'matched: ', ...h.matched.map((w) => el('mark', {}, typeof w === 'string' ? w : (w.word || JSON.stringify(w))))) : null,
        el('div', { class: 'snip' }, ...snippetParts(h.snippet || ''))));
    }
    $('search-count').textContent = q.trim() ? `${out.hits.length} rulings for “${q}”` : 'type to search';
    $('search-count').className = '';  // a question refused before (too long) is no longer
  } catch (e) {
    if (seq === searchSeq) { $('search-count').textContent = e.message; $('search-count').className = 'error'; }
  }
}

// ---------- games ----------
async function showGames() {
  const page = $('games-page');
  page.textContent = 'loading…';
  try {
    const out = await api('GET', '/api/games');
    page.textContent = '';
    page.append(el('h1', {}, 'Game records'));
    if (!out.games.length) {
      page.append(el('p', {}, 'The database holds no games. Import some with `carc games import FILE... --db carc.db`, then start `carc serve --db carc.db`.'));
      return;
    }
    const tb = el('tbody', {});
    for (const g of out.games)
      tb.append(el('tr', {}, el('td', {}, el('a', { href: '#/game/' + g.game_id }, '#' + g.game_id)), el('td', {}, (g.players || []).join(', ')),
        el('td', {}, g.turns), el('td', {}, g.verdict), el('td', {}, JSON.stringify(g.final_model))));
    page.append(el('table', { class: 'games' }, el('thead', {}, el('tr', {}, ['game', 'players', 'turns', 'verdict', 'final scores'].map((h) => el('th', {}, h)))), tb));
  } catch (e) { page.textContent = ''; page.append(el('p', { class: 'error' }, e.message)); }
}
async function showGame(id, firstTurn) {
  const page = $('games-page');
  page.textContent = 'loading…';
  try {
    if (!/^[1-9]\d*$/.test(id)) throw new Error(`game: expected a game number, got ${JSON.stringify(id)}`);
    const g = await api('GET', '/api/games/' + encodeURIComponent(id));
    page.textContent = '';
    page.append(el('h1', {}, `Game #${g.game_id}: ${g.verdict}`), el('p', {}, g.verdict_text || ''));
    const log = g.replay_log || [];
    const names = (g.players || []).map((p) => (typeof p === 'string' ? p : p.name));
    // One turn at a time: the board at that turn (the turn adjudicated from the position before
    // it, the tile it places outlined, what it scores highlighted), what was played, what it
    // scored, the scores after it; the turn opens in the workbench as a position.
    const box = el('div', { id: 'game-turn' });
    const board = el('div', { id: 'game-board' });
    // A turn in the link is shown as written or refused: "2x" is not turn 2, 99 not the last,
    // an empty turn ("/turn/") not the first, "3/turn/5" not turn 3.
    const first = firstTurn === undefined ? 1 : intOf(firstTurn);
    if (!Number.isInteger(first) || first < 1 || first > Math.max(1, log.length))
      throw new Error(`turn: expected 1 to ${Math.max(1, log.length)}, got "${firstTurn}"`);
    let at = Math.max(0, Math.min(log.length - 1, first - 1));
    let seq = 0;
    const show = async () => {
      box.textContent = '';
      const t = log[at];
      if (!t) { box.append(el('p', {}, 'no turn was replayed')); board.textContent = ''; return; }
      const who = typeof t.player === 'number' ? (names[t.player] || `P${t.player}`) : t.player;
      box.append(el('h2', {}, `Turn ${t.turn} of ${log.length}: ${who}`));
      const ul = el('ul', {});
      for (const a of t.actions || []) ul.append(el('li', { class: a.legal === false ? 'error' : '' }, (a.legal === false ? 'ILLEGAL: ' : '') + (a.description || JSON.stringify(a.action))));
      for (const e of t.score_events || []) ul.append(scoreItem(e));
      for (const n of t.notes || []) ul.append(reasonItem(n));
      box.append(ul);
      if (t.scores) box.append(el('p', { id: 'game-scores' }, 'Scores: ' + t.scores.map((v, i) => `${names[i] || 'P' + i} ${v}`).join(', ')));
      const mine = ++seq;
      board.textContent = 'drawing the board…';
      try {
        const out = await api('GET', `/api/games/${encodeURIComponent(id)}/turn/${t.turn}`);
        if (mine !== seq) return;
        board.textContent = '';
        if (!out.position) {
          board.append(el('p', { class: 'error' }, `No position before turn ${t.turn}: ${out.text}`));
          return;
        }
        board.innerHTML = out.svg || '';
        const open = el('button', { id: 'turn-open', class: 'primary', onclick: () => {
          try { load(out.position, `game #${g.game_id} turn ${t.turn}`); }
          catch (e) { board.append(el('p', { class: 'error' }, e.message)); return; }
          location.hash = '#/';
          status(`game #${g.game_id}, turn ${t.turn}: the position before it, with the turn's moves as the question (Adjudicate judges them)`);
        } }, `Open turn ${t.turn} in the workbench`);
        board.prepend(el('div', { class: 'row' }, open, el('span', { class: 'hint' },
          `the position before turn ${t.turn} (carc games position ${g.game_id} --turn ${t.turn}) with the turn's moves as the question` +
          (out.ruling ? `: ${out.ruling.verdict}` : ''))));
      } catch (e) {
        if (mine === seq) { board.textContent = ''; board.append(el('p', { class: 'error' }, e.message)); }
      }
    };
    const prev = el('button', { id: 'turn-prev', onclick: () => { at = Math.max(0, at - 1); show(); } }, '◀ turn');
    const next = el('button', { id: 'turn-next', onclick: () => { at = Math.min(log.length - 1, at + 1); show(); } }, 'turn ▶');
    const jump = el('input', { id: 'turn-jump', type: 'number', min: 1, max: Math.max(1, log.length), value: at + 1, title: 'go to turn' });
    // "2.5" or "2x" goes nowhere (not to turn 2): only a whole number in range is a turn.
    jump.addEventListener('change', () => { const n = intOf(jump.value.trim()); if (Number.isInteger(n) && n >= 1 && n <= log.length) { at = n - 1; show(); } });
    page.append(el('div', { class: 'row' }, prev, next, el('label', {}, 'turn ', jump)), el('div', { class: 'game-cols' }, box, board));
    show();
  } catch (e) { page.textContent = ''; page.append(el('p', { class: 'error' }, e.message)); }
}

// ---------- routing ----------
// The page a link names, read whole: a link that names none ("#/game/1/turn/3/x", "#/games/2",
// "#/game/1/") is refused, never shown as the nearest page. A game's turn is read by showGame,
// which refuses one that is not a turn of the game ("3/turn/5", "").
const PAGES = '#/, #/rulings, #/ruling/ID, #/games, #/game/N, #/game/N/turn/T, #line=LINE';
function pageOf(h) {
  if (h === '' || h === '/' || /^(line|p|j)=/.test(h)) return { view: 'workbench' };
  if (h === '/rulings') return { view: 'rulings' };
  if (h.startsWith('/ruling/') && h.length > '/ruling/'.length) return { view: 'ruling', id: h.slice('/ruling/'.length) };
  if (h === '/games' || h === '/game') return { view: 'games' };
  const m = /^\/game\/([^/]*)(\/turn\/(.*))?$/.exec(h);
  if (m) return { view: 'games', game: m[1], turn: m[2] === undefined ? undefined : m[3] };
  return { view: h.startsWith('/game') ? 'games' : 'workbench', unknown: `the link #${h} names no page (${PAGES})` };
}
async function route() {
  const h = location.hash.slice(1);
  const views = ['workbench', 'rulings', 'ruling', 'games'];
  const pg = pageOf(h);
  const view = pg.view;
  for (const v of views) $('view-' + v).hidden = v !== view;
  for (const a of document.querySelectorAll('header nav a')) a.classList.toggle('active', a.id === 'nav-' + (view === 'ruling' ? 'rulings' : view));
  if (pg.unknown) {
    if (view === 'games') { $('games-page').textContent = ''; $('games-page').append(el('p', { class: 'error' }, pg.unknown)); }
    else status(pg.unknown, true);
    return;
  }
  if (view === 'rulings') { $('search').focus(); runSearch(); }
  if (view === 'ruling') {
    const page = $('ruling-page');
    page.textContent = 'loading…';
    try {
      const id = decodeURIComponent(pg.id);
      page.textContent = ''; page.append(el('p', {}, el('a', { href: '#/rulings' }, '← search')), rulingView(await api('GET', '/api/rulings/' + encodeURIComponent(id)), false));
    } catch (e) { page.textContent = ''; page.append(el('p', { class: 'error' }, e.message)); }
  }
  if (view === 'games') {
    if (pg.game !== undefined) showGame(pg.game, pg.turn); else showGames();
  }
  if (view === 'workbench' && h.startsWith('line=')) {
    let line;
    try { line = hashLine(h); } catch (e) { status('the link does not carry a readable line: ' + e.message, true); return; }
    if (line !== S.line) await useLine(line, 'the position from the link');
  } else if (view === 'workbench' && (h.startsWith('p=') || h.startsWith('j='))) {
    try { load(await decodePosition(h), 'the link'); status('the position from the link'); }
    catch (e) { status('the link does not carry a readable position: ' + e.message, true); }
  }
}

async function main() {
  bindForms();
  $('search').addEventListener('input', searchSoon);
  try {
    const t = await api('GET', '/api/tiles');
    for (const tile of t.tiles) { S.tiles[tile.id] = tile; S.order.push(tile.id); }
    S.expansionIds = t.expansions || [];
    S.variants = t.variants || {};
    try {
      const m = await api('GET', '/api/modules');
      S.modules = m.modules || {};
      FIGURE_KINDS = { '': (m.core.figure_kinds || []).map((k) => k.name) };
      for (const [id, d] of Object.entries(S.modules)) FIGURE_KINDS[id] = (d.figure_kinds || []).map((k) => k.name);
    } catch (e) { FIGURE_KINDS = { '': ['meeple'], phantom: ['phantom'] }; }
    const info = await api('GET', '/api/info');
    $('dbinfo').textContent = 'rulings: ' + info.db;
  } catch (e) {
    status('carc serve does not answer: ' + e.message, true);
    return;
  }
  load(newPosition());
  setTool('tile');
  window.addEventListener('hashchange', route);
  await route();
  document.body.setAttribute('data-ready', '1');
}
main();
