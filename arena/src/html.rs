//! The HTML report of a match: one self-contained page (no network) with the match's
//! settings, the results table, the cross table, the win-rate chart and a replay viewer of
//! every game (the board drawn as SVG from the game's [`Picture`], buttons and arrow keys,
//! the move list with each move's time, and the value curve).

use crate::record::GameRecord;
use crate::report::{pairing_cells, pct, rating_cells, svg, wl, Report};
use engine::setup::{GameSetup, Picture};
use quasar_core::{Game, Side};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// One game as the viewer shows it.
#[derive(Serialize)]
struct ViewGame {
    /// `pairing.game`, from 1.
    round: String,
    /// The players of the first and the second side.
    players: [String; 2],
    /// `1-0`, `0-1`, `1/2-1/2`.
    result: String,
    /// How it ended, in words.
    end: String,
    /// The moves in the game's notation.
    moves: Vec<String>,
    /// The board before the first move and after each move: one character a cell.
    cells: Vec<String>,
    /// The same positions as text, for games without a picture.
    texts: Vec<String>,
    /// The first side's expected score after each move (from the mover's search).
    value: Vec<Option<f64>>,
    /// Milliseconds each move took.
    ms: Vec<f64>,
    /// The mover's clock after each move (`h:mm:ss.s`), under a clock.
    clk: Vec<Option<String>>,
    /// What the mover's search said, as text.
    info: Vec<String>,
}

/// What the page's script reads.
#[derive(Serialize)]
struct ViewData<'a> {
    picture: Option<Picture>,
    sides: [&'a str; 2],
    games: Vec<ViewGame>,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The positions, values and texts of one recorded game; a move that does not replay ends
/// the game's view there.
fn view<S: GameSetup>(setup: &S, rec: &GameRecord, round: String) -> ViewGame {
    let start = rec
        .start
        .as_deref()
        .and_then(|t| S::Game::parse_position(t).ok())
        .or_else(|| {
            let mut pos = setup.start().ok()?;
            for m in &rec.opening_moves {
                let mv = pos.parse_move(m).ok()?;
                pos.play(mv);
            }
            Some(pos)
        });
    let mut g = ViewGame {
        round,
        players: [rec.first.clone(), rec.second.clone()],
        result: crate::pgn::result_token(rec).to_string(),
        end: rec
            .detail
            .clone()
            .unwrap_or_else(|| rec.reason.name().into()),
        moves: Vec::new(),
        cells: Vec::new(),
        texts: Vec::new(),
        value: Vec::new(),
        ms: Vec::new(),
        clk: Vec::new(),
        info: Vec::new(),
    };
    let Some(mut pos) = start else {
        return g;
    };
    let pictured = setup.picture().is_some();
    let keep = |pos: &S::Game, g: &mut ViewGame| {
        if pictured {
            g.cells.push(setup.cells(pos));
        } else {
            g.texts.push(pos.position_text());
        }
    };
    keep(&pos, &mut g);
    for (i, text) in rec.moves.iter().enumerate() {
        let Ok(mv) = pos.parse_move(text) else {
            break;
        };
        let mover = pos.side_to_move();
        pos.play(mv);
        keep(&pos, &mut g);
        let info = rec.search.get(i).cloned().flatten();
        g.value.push(info.as_ref().and_then(|x| x.value).map(|v| {
            if mover == Side::First {
                v
            } else {
                1.0 - v
            }
        }));
        g.info.push(info.map(|x| x.comment()).unwrap_or_default());
        g.ms.push(rec.times_ms.get(i).copied().unwrap_or(0.0));
        g.clk.push(
            rec.clocks_ms
                .get(i)
                .copied()
                .flatten()
                .map(|ms| engine::clock::clk(std::time::Duration::from_millis(ms))),
        );
        g.moves.push(text.clone());
    }
    g
}

/// The report page of a match of `setup`'s game among `players`: `summary` is the match's
/// one-line description, `rep` its report, `games` its games (in any order).
pub fn page<S: GameSetup>(setup: &S, summary: &str, rep: &Report, games: &[GameRecord]) -> String {
    let sides = [
        <S::Game as Game>::side_name(Side::First),
        <S::Game as Game>::side_name(Side::Second),
    ];
    let pairs = crate::matchup::pairings(rep.players.len());
    let mut sorted: Vec<(usize, &GameRecord)> = games
        .iter()
        .map(|g| {
            let p = pairs
                .iter()
                .position(|&(a, b)| rep.players[a] == g.player_a && rep.players[b] == g.player_b)
                .map_or(0, |i| i + 1);
            (p, g)
        })
        .collect();
    sorted.sort_by_key(|(p, g)| (*p, g.number));
    let data = ViewData {
        picture: setup.picture(),
        sides,
        games: sorted
            .iter()
            .map(|(p, g)| view(setup, g, format!("{p}.{}", g.number + 1)))
            .collect(),
    };
    // Inside a script element only `</` could end it early.
    let json = serde_json::to_string(&data)
        .expect("view data always serialises")
        .replace("</", "<\\/");

    let mut h = String::new();
    let title = format!("quasar arena: {} {}", S::NAME, setup.params());
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{}</title>\n<style>{STYLE}</style></head><body>\n<h1>{}</h1>\n<p>{}</p>\n",
        esc(&title),
        esc(&title),
        esc(summary)
    );
    h.push_str("<h2>Players</h2>\n<ol>");
    for p in &rep.players {
        let _ = write!(h, "<li><code>{}</code></li>", esc(p));
    }
    h.push_str("</ol>\n<h2>Results</h2>\n<table class=\"results\"><tr><th>Test</th><th>Player A</th><th>Player B</th>");
    let side = esc(&rep.first_side);
    let _ = writeln!(
        h,
        "<th>Player A {side}</th><th>Player B {side}</th><th>A - B</th>\
         <th>A score (95% CI)</th><th>Elo A-B (95% CI)</th><th>LOS</th></tr>"
    );
    for s in &rep.pairings {
        let cells = pairing_cells(s, |p| format!("<code>{}</code>", esc(p)));
        let _ = writeln!(h, "<tr><td>{}</td></tr>", cells.join("</td><td>"));
    }
    h.push_str("</table>\n");
    if rep.players.len() > 2 {
        h.push_str("<h3>Cross table</h3>\n<table class=\"results\"><tr><th>Player</th>");
        for i in 0..rep.players.len() {
            let _ = write!(h, "<th>{}</th>", i + 1);
        }
        h.push_str("<th>Score</th></tr>\n");
        for (i, name) in rep.players.iter().enumerate() {
            let _ = write!(h, "<tr><td>{}. <code>{}</code></td>", i + 1, esc(name));
            for cell in &rep.cross[i] {
                let _ = write!(h, "<td>{}</td>", cell.as_ref().map_or(String::new(), wl));
            }
            let score = rep.overall[i].score().map_or("-".into(), pct);
            let _ = writeln!(h, "<td>{score}</td></tr>");
        }
        h.push_str("</table>\n");
        if !rep.ratings.is_empty() {
            let _ = writeln!(
                h,
                "<h3>Ratings</h3>\n<p>Maximum-likelihood Elo over all games, 95% intervals, \
                 <code>{}</code> = 0.</p>\n<table class=\"results\" id=\"ratings\"><tr><th>Rank</th>\
                 <th>Player</th><th>Elo (95% CI)</th><th>Games</th><th>Score</th></tr>",
                esc(&rep.anchor)
            );
            for (k, row) in rep.ratings.iter().enumerate() {
                let cells = rating_cells(k + 1, row, |p| format!("<code>{}</code>", esc(p)));
                let _ = writeln!(h, "<tr><td>{}</td></tr>", cells.join("</td><td>"));
            }
            h.push_str("</table>\n");
        }
    }
    let chart = svg(rep);
    let chart = chart.find("<svg").map_or(chart.as_str(), |i| &chart[i..]);
    let _ = write!(
        h,
        "<h2>Win rates</h2>\n<div class=\"chart\">{chart}</div>\n\
         <h2>Games</h2>\n<table class=\"games\" id=\"games\"><tr><th>Round</th><th>{}</th>\
         <th>{}</th><th>Result</th><th>Plies</th><th>End</th></tr></table>\n",
        esc(sides[0]),
        esc(sides[1])
    );
    h.push_str(VIEWER);
    let _ = write!(
        h,
        "<script type=\"application/json\" id=\"data\">{json}</script>\n<script>{SCRIPT}</script>\n</body></html>\n"
    );
    h
}

/// Writes [`page`] to `dir/report.html` atomically; returns its path.
pub fn write<S: GameSetup>(
    dir: &Path,
    setup: &S,
    summary: &str,
    rep: &Report,
    games: &[GameRecord],
) -> Result<std::path::PathBuf, quasar_file::FileError> {
    let path = dir.join(crate::report::REPORT_HTML);
    quasar_file::write(&path, page(setup, summary, rep, games).as_bytes())?;
    Ok(path)
}

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:72em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:right}\
td:nth-child(2),td:nth-child(3){text-align:left}table.games td{text-align:left}\
table.games tr.game{cursor:pointer}table.games tr.current{background:#dde8f5}\
#viewer{display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap}\
#moves{max-height:26em;overflow-y:auto;min-width:16em;font-family:monospace;font-size:.95em}\
#moves span.mv{cursor:pointer;padding:0 .25em}#moves span.cur{background:#f5d76e}\
#moves .t{color:#888;font-size:.85em}#controls button{font-size:1.1em;margin-right:.2em}\
#info{font-family:monospace;color:#555;min-height:1.3em}";

const VIEWER: &str = "<h2 id=\"replay\">Replay</h2>\n<p id=\"gametitle\"></p>\n<div id=\"viewer\"><div>\
<svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\
<div id=\"controls\"><button id=\"first\" title=\"start (Home)\">&laquo;</button>\
<button id=\"prev\" title=\"back (left arrow)\">&lsaquo;</button>\
<button id=\"next\" title=\"forward (right arrow)\">&rsaquo;</button>\
<button id=\"last\" title=\"end (End)\">&raquo;</button> <span id=\"ply\"></span></div>\
<div id=\"info\"></div><pre id=\"text\"></pre></div>\
<div id=\"moves\"></div><div><svg id=\"curve\" width=\"360\" height=\"180\" \
xmlns=\"http://www.w3.org/2000/svg\"></svg><div>value for the first side, from each mover's search</div></div></div>\n";

const SCRIPT: &str = r#"
(function(){
const D=JSON.parse(document.getElementById('data').textContent);
const NS='http://www.w3.org/2000/svg';
const P=D.picture, U=48;
let gi=0, ply=0;
function el(tag,attrs,parent){const e=document.createElementNS(NS,tag);for(const k in attrs)e.setAttribute(k,attrs[k]);if(parent)parent.appendChild(e);return e;}
function drawBoard(){
  const svg=document.getElementById('board'), g=D.games[gi];
  while(svg.firstChild)svg.removeChild(svg.firstChild);
  const text=document.getElementById('text');
  if(!P){svg.setAttribute('width',0);text.textContent=g.texts[ply]||'';return;}
  text.textContent='';
  const all=P.cells.concat(P.background);
  const w=Math.max(...all.map(c=>c[0]))+1, h=Math.max(...all.map(c=>c[1]))+1;
  svg.setAttribute('width',w*U+8);svg.setAttribute('height',h*U+8);
  svg.setAttribute('viewBox',(-4)+' '+(-4)+' '+(w*U+8)+' '+(h*U+8));
  for(const c of P.background)el('rect',{x:c[0]*U,y:c[1]*U,width:U,height:U,fill:'#f0e6cc'},svg);
  const cells=g.cells[ply]||'';
  P.cells.forEach((c,i)=>{
    const x=c[0]*U,y=c[1]*U;
    if(P.shape==='hex'){el('circle',{cx:x+U/2,cy:y+U/2,r:U*0.47,fill:'#e8dcc0',stroke:'#9a8a6a'},svg);}
    else{const dark=P.background.length>0||((Math.round(c[0])+Math.round(c[1]))%2===1);
      el('rect',{x:x,y:y,width:U,height:U,fill:dark?'#b58863':'#e9d6b0',stroke:'#8a6a4a','stroke-width':0.5},svg);}
    if(P.labels[i]){const t=el('text',{x:P.shape==='hex'?x+U/2:x+3,y:P.shape==='hex'?y+U*0.92:y+11,'font-size':9,fill:'#6b5a3a','text-anchor':P.shape==='hex'?'middle':'start'},svg);t.textContent=P.labels[i];}
    const ch=cells[i];
    if(ch&&ch!=='.'){
      const side=(ch==='a'||ch==='A')?0:1;
      el('circle',{class:'piece',cx:x+U/2,cy:y+U/2,r:U*0.36,fill:P.colours[side],stroke:'#555','stroke-width':2},svg);
      if(ch==='A'||ch==='B')el('circle',{cx:x+U/2,cy:y+U/2,r:U*0.18,fill:'none',stroke:'#d4a017','stroke-width':3},svg);
    }
  });
}
function drawCurve(){
  const svg=document.getElementById('curve'), g=D.games[gi], W=360, H=180, n=Math.max(g.moves.length,1);
  while(svg.firstChild)svg.removeChild(svg.firstChild);
  el('rect',{x:0,y:0,width:W,height:H,fill:'#fafafa',stroke:'#ccc'},svg);
  el('line',{x1:0,y1:H/2,x2:W,y2:H/2,stroke:'#bbb','stroke-dasharray':'4 3'},svg);
  [['1',10],['0.5',H/2-3],['0',H-4]].forEach(l=>{const t=el('text',{x:3,y:l[1],'font-size':10,fill:'#888'},svg);t.textContent=l[0];});
  const X=i=>i*W/n, Y=v=>H-v*H;
  let pts=[];
  g.value.forEach((v,i)=>{if(v!==null&&v!==undefined)pts.push(X(i+1).toFixed(1)+','+Y(v).toFixed(1));});
  if(pts.length)el('polyline',{points:pts.join(' '),fill:'none',stroke:'#4a7fb5','stroke-width':2},svg);
  el('line',{id:'mark',x1:X(ply),y1:0,x2:X(ply),y2:H,stroke:'#c8302c'},svg);
}
function show(){
  const g=D.games[gi];
  ply=Math.max(0,Math.min(ply,g.moves.length));
  drawBoard();drawCurve();
  document.getElementById('ply').textContent='ply '+ply+' of '+g.moves.length;
  document.getElementById('info').textContent=ply>0?(g.moves[ply-1]+': '+[g.info[ply-1],(g.ms[ply-1]).toFixed(1)+' ms',g.clk[ply-1]?'clock '+g.clk[ply-1]:''].filter(s=>s).join(', ')):'start position';
  document.querySelectorAll('#moves span.mv').forEach(s=>s.classList.toggle('cur',+s.dataset.ply===ply));
  const cur=document.querySelector('#moves span.cur'); if(cur&&cur.scrollIntoView)cur.scrollIntoView({block:'nearest'});
}
function load(i){
  gi=i;ply=0;const g=D.games[gi];
  document.getElementById('gametitle').textContent='Round '+g.round+': '+g.players[0]+' ('+D.sides[0]+') vs '+g.players[1]+' ('+D.sides[1]+'), '+g.result+', '+g.end;
  const m=document.getElementById('moves');m.textContent='';
  g.moves.forEach((mv,k)=>{
    if(k%2===0){const num=document.createElement('span');num.textContent=(k/2+1)+'. ';if(k>0)m.appendChild(document.createElement('br'));m.appendChild(num);}
    const s=document.createElement('span');s.className='mv';s.dataset.ply=k+1;s.textContent=mv;
    s.title=g.info[k];s.onclick=()=>{ply=k+1;show();};m.appendChild(s);
    const t=document.createElement('span');t.className='t';t.textContent=' '+g.ms[k].toFixed(g.ms[k]<10?1:0)+'ms'+(g.clk[k]?' ['+g.clk[k]+']':'')+' ';m.appendChild(t);
  });
  document.querySelectorAll('#games tr.game').forEach((r,k)=>r.classList.toggle('current',k===gi));
  show();
}
const table=document.getElementById('games');
D.games.forEach((g,i)=>{
  const r=table.insertRow();r.className='game';
  [g.round,g.players[0],g.players[1],g.result,g.moves.length,g.end].forEach(v=>{r.insertCell().textContent=v;});
  r.onclick=()=>load(i);
});
document.getElementById('first').onclick=()=>{ply=0;show();};
document.getElementById('prev').onclick=()=>{ply--;show();};
document.getElementById('next').onclick=()=>{ply++;show();};
document.getElementById('last').onclick=()=>{ply=D.games[gi].moves.length;show();};
document.addEventListener('keydown',e=>{
  if(e.key==='ArrowLeft'){ply--;show();}else if(e.key==='ArrowRight'){ply++;show();}
  else if(e.key==='Home'){ply=0;show();}else if(e.key==='End'){ply=D.games[gi].moves.length;show();}
  else if(e.key==='ArrowUp'&&gi>0){load(gi-1);}else if(e.key==='ArrowDown'&&gi<D.games.length-1){load(gi+1);}
  else return; e.preventDefault();
});
if(D.games.length)load(0);
})();
"#;
