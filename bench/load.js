'use strict';
// shared/bench/ours-node/load.js (the peer's workload, shared/bench/WORKLOAD.md, against this server: same Node
// client runtime, same pacing, same latency definition) with one more client mode, FRAMES=html: each seat's
// socket is a phone's page (its seat cookie and language cookie, no ?format=json), so every push is the HTML
// fragment a phone renders, and a bid counts as seen once the frame's view (the generic seat template's
// round and bidders) includes it. FRAMES=json (the default) is ours-node/load.js unchanged.
// Two more for a real table's pace (issue 20, item 4): MODE=paced, where each table makes one bid at a time, the
// next a random 0-2 x PACE_S seconds after the last was sent (PACE_S on average), for DURATION_S seconds; and
// DISPLAY=1, a display page's socket per table beside its seats, which must see every bid too. DEFLATE=1 offers
// permessage-deflate as browsers do (off by default, as in ours-node: the generator's own zlib queue, ten at a time,
// then limits a burst run, not the server). How a seat sends its bid, with FRAMES=html: ACTIONS=page as a phone's page
// does while its socket is open, its form's fields in a message on the socket, answered there; ACTIONS=form as the
// page does without a socket, a form posted with the page's session and CSRF token. ACTIONS=socket (the default) is
// the JSON action of ours-node.
// Loopback only; bounded in time.
//
// Env: SERVER (http://127.x:port), SERVER_PIDS (comma list, for RSS/CPU), TABLES, SEATS,
//      ROUNDS, WARMUP_ROUNDS, MODE (burst|serial|paced), CONNECT_CONCURRENCY, TIMEOUT_S,
//      FRAMES (json|html), LANGS (html: the seats' languages in turn, default en), NODE_BENCH (for the ws module),
//      PACE_S, DURATION_S (paced), DISPLAY (1: a display page per table), DEFLATE (1: offer permessage-deflate),
//      ACTIONS (socket|page|form: how a seat sends its bid), BIDS (a file: every measured bid as [table, round,
//      seat, latency ms], for bench/rounds.py)
const fs = require('fs');
const path = require('path');
const { performance, monitorEventLoopDelay } = require('perf_hooks');
const WebSocket = require(path.join(process.env.NODE_BENCH || __dirname, '..', 'peer-boardgameio', 'node_modules', 'ws'));

const SERVER = process.env.SERVER || '';
const PIDS = (process.env.SERVER_PIDS || '').split(',').filter(Boolean).map(Number);
const TABLES = Number(process.env.TABLES || 1);
const SEATS = Number(process.env.SEATS || 6);
const ROUNDS = Number(process.env.ROUNDS || 10);
const MODE = process.env.MODE || 'burst';
const WARMUP_ROUNDS = Number(process.env.WARMUP_ROUNDS || 0);
const CONNECT_CONCURRENCY = Number(process.env.CONNECT_CONCURRENCY || 50);
const TIMEOUT_S = Number(process.env.TIMEOUT_S || 170);
const CLK_TCK = 100;
const FRAMES = process.env.FRAMES || 'json';
const LANGS = (process.env.LANGS || 'en').split(',');
const PACE_S = Number(process.env.PACE_S || 5);
const DURATION_S = Number(process.env.DURATION_S || 60);
const DISPLAY = process.env.DISPLAY === '1';
const DEFLATE = process.env.DEFLATE === '1';
const ACTIONS = process.env.ACTIONS || 'socket';
if (ACTIONS !== 'socket' && FRAMES !== 'html') { console.error(`ACTIONS=${ACTIONS} needs FRAMES=html`); process.exit(2); }
const WATCHERS = SEATS + (DISPLAY ? 1 : 0); // the sockets that must see a bid: the seats', then the display's
if (!/^http:\/\/(127\.\d+\.\d+\.\d+|localhost):\d+$/.test(SERVER)) { console.error('SERVER must be loopback'); process.exit(2); }
const log = (...a) => console.error(`[ours ${(performance.now() / 1000).toFixed(1)}s]`, ...a);

function rssKb(pid) { try { const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m); return m ? Number(m[1]) : 0; } catch (e) { return 0; } }
function cpuS(pid) { try { const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); const r = s.slice(s.lastIndexOf(')') + 2).split(' '); return (Number(r[11]) + Number(r[12])) / CLK_TCK; } catch (e) { return 0; } }
function machineCpu() { const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number); return [f.slice(0, 8).reduce((a, b) => a + b, 0), f[3] + f[4]]; }
async function pool(items, n, fn) { let i = 0; await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => { while (i < items.length) { const k = i++; await fn(items[k], k); } })); }
function pct(s, p) { if (!s.length) return null; return s[Math.min(s.length, Math.max(1, Math.ceil(p / 100 * s.length))) - 1]; }
const r2 = (x) => (x == null ? null : Math.round(x * 100) / 100);

async function api(method, p, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(SERVER + p, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const j = await r.json();
  if (r.status >= 300) throw new Error(`${method} ${p} -> ${r.status} ${JSON.stringify(j)}`);
  return j;
}

const tables = [];
const latencies = [];
const bids = [];
let frameBytes = 0, frameCount = 0;
let completed = 0, recording = false, tablesDone = 0, phaseResolve = null, timedOut = false, disconnects = 0, leaks = 0, errors = 0, seqCounter = 0, stopping = false;

function sendBid(t, s) {
  if (timedOut) return;
  const a = { round: t.round, seat: s, sent: performance.now(), seen: new Uint8Array(WATCHERS), count: 0 };
  t.pending.set(s, a);
  const amount = 1 + Math.floor(Math.random() * 1000), id = `b${++seqCounter}`;
  if (ACTIONS === 'form') { postBid(t, s, amount, id); return; }
  const action = ACTIONS === 'page' ? { form: { type: ['bid'], amount: [String(amount)], client_action_id: [id] } }
    : { type: 'bid', amount, client_action_id: id };
  t.socks[s].send(JSON.stringify(action));
}
// ACTIONS=form: the bid as a phone's page sends it, an htmx form posted with the page's session and CSRF token.
function postBid(t, s, amount, id) {
  const form = t.forms[s];
  fetch(`${SERVER}/t/${t.code}/act`, {
    method: 'POST',
    headers: { cookie: form.cookie, 'x-csrf-token': form.csrf, 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded' },
    body: `type=bid&amount=${amount}&client_action_id=${id}`,
  }).then((r) => { if (r.status >= 300) errors++; return r.arrayBuffer(); }).catch(() => { errors++; });
}
// A seat's page as a phone loads it: its session cookie and the CSRF token its forms send.
async function openSeatPage(t, s) {
  const cookie = `seat_${t.code}=${t.tokens[s]}; lang=${LANGS[s % LANGS.length]}`;
  const r = await fetch(`${SERVER}/t/${t.code}/seat`, { headers: { cookie } });
  const page = await r.text();
  const session = r.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('session='));
  t.forms[s] = { cookie: `${cookie}; ${session}`, csrf: page.match(/data-csrf="([^"]+)"/)[1] };
}
function startRound(t) { if (MODE === 'burst') { for (let s = 0; s < SEATS; s++) sendBid(t, s); } else { t.next = 1; sendBid(t, 0); } }
// A paced table: the seats bid in turn, one bid in flight, each sent PACE_S seconds after the last on average.
function pacedBid(t) {
  if (stopping) { t.done = true; if (++tablesDone === TABLES && phaseResolve) phaseResolve(); return; }
  t.lastSent = performance.now();
  sendBid(t, t.next);
}
function onPacedComplete(t) {
  t.next = (t.next + 1) % SEATS;
  if (t.next === 0) t.round += 1;
  setTimeout(() => pacedBid(t), Math.max(0, t.lastSent + Math.random() * 2000 * PACE_S - performance.now()));
}
function runPaced() {
  recording = true; tablesDone = 0;
  setTimeout(() => { stopping = true; }, DURATION_S * 1000);
  // Tables start spread over one pace, as quiet tables do not all act at the same moment.
  return new Promise((res) => { phaseResolve = res; for (const t of tables) { t.next = 0; setTimeout(() => pacedBid(t), Math.random() * 1000 * PACE_S); } });
}
function onComplete(t) {
  if (MODE === 'paced') { onPacedComplete(t); return; }
  if (MODE === 'serial' && t.next < SEATS) { const s = t.next++; queueMicrotask(() => sendBid(t, s)); return; }
  if (t.pending.size > 0) return;
  t.round += 1;
  if (t.round < t.target) queueMicrotask(() => startRound(t));
  else { t.done = true; if (++tablesDone === TABLES && phaseResolve) phaseResolve(); }
}
function runPhase(n, rec) {
  recording = rec; tablesDone = 0;
  return new Promise((res) => { phaseResolve = res; for (const t of tables) { t.target = t.round + n; t.done = false; startRound(t); } });
}
// An HTML frame's view, read back from the generic seat template (<dt>round</dt><dd>3</dd>, bidders as a list).
function htmlFrame(text) {
  if (text.charAt(0) === '{') { // a refusal of a socket action, or the answer to a page's form (before its view)
    const cut = text.indexOf('\n');
    const answer = JSON.parse(cut < 0 ? text : text.slice(0, cut));
    if (cut < 0 || answer.status !== 200) return answer;
    text = text.slice(cut + 1);
  }
  const round = text.match(/<dt>round<\/dt><dd>(\d+)<\/dd>/);
  const bidders = text.match(/<dt>bidders<\/dt><dd>\[([^\]]*)\]<\/dd>/);
  const seq = text.match(/data-seq="(\d+)"/);
  if (!round || !bidders || !seq) return {};
  const view = { round: Number(round[1]), bidders: bidders[1].match(/seat-\d+/g) || [] };
  if (text.includes('<dt>bids</dt>')) view.bids = true;
  return { seq: Number(seq[1]), view };
}
function onFrame(t, s, frame) {
  if (frame.error || (frame.status && frame.status !== 200)) { errors++; return; }
  const v = frame.view; if (!v) return;
  t.last[s] = v;
  if (v.bids) leaks++;
  if (t.pending.size === 0) return;
  const now = performance.now();
  for (const a of t.pending.values()) {
    if (a.seen[s]) continue;
    if (v.round > a.round || (v.round === a.round && v.bidders.includes(`seat-${a.seat}`))) {
      a.seen[s] = 1;
      if (++a.count === WATCHERS) {
        if (recording) {
          latencies.push(now - a.sent); completed++;
          if (process.env.BIDS) bids.push([t.idx, a.round, a.seat, r2(now - a.sent)]);
        }
        t.pending.delete(a.seat);
        onComplete(t);
      }
    }
  }
}

async function main() {
  let phase = 'setup';
  const hard = setTimeout(() => { timedOut = true; log(`TIMEOUT in ${phase}`); if (phase === 'measure' && phaseResolve) phaseResolve(); else { console.log(JSON.stringify({ tables: TABLES, error: `timeout during ${phase}` })); process.exit(3); } }, TIMEOUT_S * 1000);
  for (let i = 0; i < TABLES; i++) tables.push({ idx: i, code: null, tokens: [], forms: [], socks: [], last: [], round: 0, pending: new Map(), done: false });
  await pool(tables, CONNECT_CONCURRENCY, async (t) => {
    const made = await api('POST', '/api/tables', { game: 'sealed-bid', options: { players: SEATS } });
    t.code = made.code;
    for (let s = 0; s < SEATS; s++) t.tokens[s] = (await api('POST', `/api/tables/${t.code}/seats`, { seat: `seat-${s}`, name: `t${t.idx}s${s}` })).token;
    if (ACTIONS === 'form') for (let s = 0; s < SEATS; s++) await openSeatPage(t, s);
  });
  const list = []; for (const t of tables) for (let s = 0; s < WATCHERS; s++) list.push([t, s]);
  await pool(list, CONNECT_CONCURRENCY, ([t, s]) => new Promise((resolve, reject) => {
    const lang = `lang=${LANGS[s % LANGS.length]}`;
    const page = s === SEATS ? (FRAMES === 'html' ? { query: 'view=display', headers: { cookie: lang } } : { query: 'view=display&format=json', headers: {} })
      : FRAMES === 'html'
        ? { query: 'view=seat', headers: { cookie: `seat_${t.code}=${t.tokens[s]}; ${lang}` } }
        : { query: 'format=json', headers: { authorization: `Bearer ${t.tokens[s]}` } };
    const ws = new WebSocket(`${SERVER.replace('http', 'ws')}/t/${t.code}/ws?${page.query}`, { headers: page.headers, perMessageDeflate: DEFLATE });
    t.socks[s] = ws;
    let synced = false;
    ws.on('message', (data) => {
      if (recording) { frameBytes += data.length; frameCount++; }
      const f = FRAMES === 'html' ? htmlFrame(data.toString()) : JSON.parse(data);
      if (!synced && f.view) { synced = true; if (s === 0) t.round = f.view.round; resolve(); } onFrame(t, s, f); });
    ws.on('close', () => { if (synced && phase !== 'teardown') disconnects++; });
    ws.on('error', (e) => { if (!synced) reject(e); });
  }));
  log(`connected ${list.length} sockets`);
  await new Promise((r) => setTimeout(r, 500));
  if (WARMUP_ROUNDS > 0 && MODE !== 'paced') { phase = 'warmup'; await runPhase(WARMUP_ROUNDS, false); await new Promise((r) => setTimeout(r, 200)); }
  phase = 'measure';
  const ld = monitorEventLoopDelay({ resolution: 5 }); ld.enable();
  const cpu0 = PIDS.map(cpuS), cli0 = process.cpuUsage(), m0 = machineCpu(), t0 = performance.now();
  await (MODE === 'paced' ? runPaced() : runPhase(ROUNDS, true));
  const wall = (performance.now() - t0) / 1000;
  if (process.env.BIDS) fs.writeFileSync(process.env.BIDS, JSON.stringify(bids));
  clearTimeout(hard); ld.disable();
  const cpu1 = PIDS.map(cpuS), cli = process.cpuUsage(cli0), m1 = machineCpu();
  let bad = 0;
  for (const t of tables) for (let s = 0; s < WATCHERS; s++) { const v = t.last[s]; if (!timedOut && (!v || v.round !== t.round)) bad++; }
  const sorted = Float64Array.from(latencies).sort();
  console.log(JSON.stringify({
    impl: 'ours', frames: FRAMES, tables: TABLES, seats: SEATS, display: DISPLAY, sockets: list.length, actions: completed,
    p50_ms: r2(pct(sorted, 50)), p90_ms: r2(pct(sorted, 90)), p99_ms: r2(pct(sorted, 99)), max_ms: r2(sorted[sorted.length - 1]),
    actions_per_s: r2(completed / wall),
    server_rss_mb: r2(PIDS.map(rssKb).reduce((a, b) => a + b, 0) / 1024),
    server_cpu_pct: r2(100 * cpu1.reduce((a, b, i) => a + b - cpu0[i], 0) / wall),
    client_cpu_pct: r2(100 * (cli.user + cli.system) / 1e6 / wall),
    machine_idle_pct: r2(100 * (m1[1] - m0[1]) / (m1[0] - m0[0])),
    client_loop_delay_p99_ms: r2(ld.percentile(99) / 1e6),
    frame_bytes_mean: frameCount ? Math.round(frameBytes / frameCount) : null,
    frames_per_action: completed ? r2(frameCount / completed) : null,
    rounds: ROUNDS, warmup_rounds: WARMUP_ROUNDS, mode: MODE === 'paced' ? `paced ${PACE_S} s` : MODE, wall_s: r2(wall),
    incomplete_actions: MODE === 'paced' ? tables.reduce((n, t) => n + t.pending.size, 0) : TABLES * SEATS * ROUNDS - completed, timed_out: timedOut, disconnects, errors, bad_final_views: bad, secrecy_leaks: leaks,
  }));
  phase = 'teardown';
  for (const t of tables) for (const w of t.socks) { try { w.close(); } catch (e) { /* */ } }
  setTimeout(() => process.exit(timedOut ? 3 : 0), 300);
}
main().catch((e) => { console.error('ours load failed:', e); process.exit(1); });
