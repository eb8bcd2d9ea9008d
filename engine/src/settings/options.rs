//! Every engine option declared once: its name (the flag `--NAME` of `bestmove`, `play`,
//! `gtp` and `train`, and the key `NAME=` of `mcts:` and `ab:` player specs), its hidden
//! old names, its value's name, its one help text and the search it shapes. The command
//! line's flags, the specs' key lists and the arena's `--player` help are made from
//! [`OPTIONS`]; each key's value is read by [`EngineSettings::set`] or [`AbSettings::set`],
//! which take exactly the keys listed here.
//!
//! [`EngineSettings::set`]: super::EngineSettings::set
//! [`AbSettings::set`]: crate::ab_player::AbSettings::set

/// Which search an option shapes; on the command line an option of one search selects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// MCTS only.
    Mcts,
    /// Alpha-beta only.
    AlphaBeta,
    /// Both searches.
    Both,
}

/// A hidden flag without a value that stands for its option at one value (`--race` is
/// `--rule race`), kept for older scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Switch {
    /// The flag's name, without `--`.
    pub flag: &'static str,
    /// The option's value it stands for.
    pub value: &'static str,
}

/// One engine option, as the command line and the player specs take it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The flag's name without `--`, and the spec key's.
    pub name: &'static str,
    /// Whether the search commands take it as a flag.
    pub flag: bool,
    /// Whether `mcts:` specs take it as a key.
    pub mcts_key: bool,
    /// Whether `ab:` specs take it as a key.
    pub ab_key: bool,
    /// The search it shapes.
    pub scope: Scope,
    /// The value's name in the help (`N`, `on|off`).
    pub value_name: &'static str,
    /// Hidden older names of the flag, taking the same value.
    pub aliases: &'static [&'static str],
    /// Hidden older flags that stand for a value.
    pub switches: &'static [Switch],
    /// Whether it needs a table (`--tb`, `tb=`).
    pub needs_table: bool,
    /// Whether it is one of the playout policies' switches (the playout keys but the kind,
    /// `playout`), which only the games whose [`GameSetup::playout_keys`] list it take: its
    /// help names them.
    ///
    /// [`GameSetup::playout_keys`]: crate::setup::GameSetup::playout_keys
    pub playout_switch: bool,
    /// What it does, after the prefix [`Self::help`] adds: capitalised for a flag of both
    /// searches, which has none; a few words for a key without a flag.
    pub text: &'static str,
    /// Its default in words, where the help gives one (`16`; the search commands' own
    /// defaults, such as `--time`'s, are the flag's); the games' own defaults follow it.
    pub default: Option<&'static str>,
}

/// What the games a command registers say about one option, for its help: the engine
/// names no game, so the command gathers these from the games' setups
/// ([`crate::setup::GameSetup::option_help`], [`crate::setup::GameSetup::playout_keys`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameTexts {
    /// For a playout switch, the games whose playouts take it, by their names in prose
    /// (`Breakthrough`).
    pub only: Vec<&'static str>,
    /// Each game's note on what the option means or does in it, by the game's name, in the
    /// order of the games.
    pub notes: Vec<(&'static str, &'static str)>,
    /// Each game's own default, by the game's name, where it is not the option's.
    pub defaults: Vec<(&'static str, &'static str)>,
}

impl GameTexts {
    /// The games whose playouts take a playout switch, for its help: `G`, `G and H`, or
    /// `some games` where none is known.
    fn takers(&self) -> String {
        match self.only.as_slice() {
            [] => "some games".to_string(),
            games => games.join(" and "),
        }
    }
}

impl EngineOption {
    /// An option of `scope`, a flag and no key until the builders below say otherwise.
    const fn new(
        name: &'static str,
        scope: Scope,
        value_name: &'static str,
        text: &'static str,
    ) -> Self {
        EngineOption {
            name,
            flag: true,
            mcts_key: false,
            ab_key: false,
            scope,
            value_name,
            aliases: &[],
            switches: &[],
            needs_table: false,
            playout_switch: false,
            text,
            default: None,
        }
    }

    /// An MCTS option, a flag and an `mcts:` key.
    const fn mcts(name: &'static str, value_name: &'static str, text: &'static str) -> Self {
        Self::new(name, Scope::Mcts, value_name, text).mcts_key()
    }

    /// An alpha-beta option, a flag and an `ab:` key.
    const fn ab(name: &'static str, value_name: &'static str, text: &'static str) -> Self {
        Self::new(name, Scope::AlphaBeta, value_name, text).ab_key()
    }

    /// An option of both searches, a flag.
    const fn both(name: &'static str, value_name: &'static str, text: &'static str) -> Self {
        Self::new(name, Scope::Both, value_name, text)
    }

    const fn mcts_key(mut self) -> Self {
        self.mcts_key = true;
        self
    }

    const fn ab_key(mut self) -> Self {
        self.ab_key = true;
        self
    }

    const fn no_flag(mut self) -> Self {
        self.flag = false;
        self
    }

    const fn needs_table(mut self) -> Self {
        self.needs_table = true;
        self
    }

    const fn aliases(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }

    const fn switches(mut self, switches: &'static [Switch]) -> Self {
        self.switches = switches;
        self
    }

    const fn defaults_to(mut self, default: &'static str) -> Self {
        self.default = Some(default);
        self
    }

    const fn playout_switch(mut self) -> Self {
        self.playout_switch = true;
        self
    }

    /// Whether `player` specs take it as a key (both kinds for [`Scope::Both`]).
    pub const fn is_key_of(&self, player: Scope) -> bool {
        match player {
            Scope::Mcts => self.mcts_key,
            Scope::AlphaBeta => self.ab_key,
            Scope::Both => self.mcts_key && self.ab_key,
        }
    }

    /// The help as the flag shows it without the games' texts (see [`Self::help_with`]).
    pub fn help(&self) -> String {
        self.help_with(&GameTexts::default())
    }

    /// The help as the flag shows it: the search, the games of a playout switch and the
    /// table it needs, then [`Self::text`] (`MCTS, with --tb: consult the table ...`), the
    /// games' notes in parentheses (`(G: NOTE; H: NOTE)`) and the default, followed by the
    /// games' own (`[default: 0; G: 0.25]`).
    pub fn help_with(&self, games: &GameTexts) -> String {
        let search = match self.scope {
            Scope::Mcts => Some("MCTS".to_string()),
            Scope::AlphaBeta => Some("Alpha-beta".to_string()),
            Scope::Both => None,
        };
        let prefix: Vec<String> = [
            search,
            self.playout_switch
                .then(|| format!("{} only", games.takers())),
            self.needs_table.then(|| "with --tb".to_string()),
        ]
        .into_iter()
        .flatten()
        .collect();
        let mut text = self.text.to_string();
        let by_game = |texts: &[(&str, &str)]| -> Vec<String> {
            texts.iter().map(|(g, t)| format!("{g}: {t}")).collect()
        };
        if !games.notes.is_empty() {
            text += &format!(" ({})", by_game(&games.notes).join("; "));
        }
        let defaults: Vec<String> = self
            .default
            .map(str::to_string)
            .into_iter()
            .chain(by_game(&games.defaults))
            .collect();
        if !defaults.is_empty() {
            text += &format!(" [default: {}]", defaults.join("; "));
        }
        if prefix.is_empty() {
            text
        } else {
            format!("{}: {text}", prefix.join(", "))
        }
    }

    /// The option as a spec's key without the games' texts (see [`Self::key_text_with`]).
    pub fn key_text(&self) -> String {
        self.key_text_with(&GameTexts::default())
    }

    /// The option as a spec's key: `every=K`, with its help where no flag has it and the
    /// games whose playouts take it where it is a playout switch (`tc=BASE+INC (a clock of
    /// its own)`, `win-in-one=on|off (G)`).
    pub fn key_text_with(&self, games: &GameTexts) -> String {
        let mut text = format!("{}={}", self.name, self.value_name);
        if !self.flag {
            text += &format!(" ({})", self.text);
        } else if self.playout_switch {
            text += &format!(" ({})", games.takers());
        }
        text
    }
}

const fn off(flag: &'static str) -> Switch {
    Switch { flag, value: "off" }
}

/// Every engine option, in the order of the help and of the key lists.
pub const OPTIONS: &[EngineOption] = &[
    EngineOption::both(
        "engine",
        "ENGINE",
        "The search: mcts or ab (alpha-beta, its own evaluation unless --eval). --time, --sims \
         (a node count for ab), --seed and --tb serve both; --depth, --hash and --eval select \
         ab, the other options mcts",
    )
    .defaults_to("the best player found for the game and board"),
    EngineOption::both(
        "tb",
        "FILE",
        "Tablebase file (from `quasar tablebase build`) to consult at expansion and in playouts",
    )
    .mcts_key()
    .ab_key(),
    EngineOption::both(
        "table-cache",
        "MiB",
        "Cache of a compressed table (--tb) larger than it, in MiB (fractions allowed), \
         shared by the search's threads: probes read the parts of the table they need into it; \
         a table that fits is read whole (0: always whole)",
    )
    .defaults_to("256")
    .mcts_key()
    .ab_key(),
    EngineOption::mcts(
        "rule",
        "sound|race",
        "sound (only what the table proves) or race (playouts also end by the table's looser \
         rule, where its game has one; never a proof)",
    )
    .defaults_to("sound")
    .needs_table()
    .switches(&[Switch {
        flag: "race",
        value: "race",
    }]),
    EngineOption::mcts(
        "every",
        "K",
        "consult the table inside playouts at every K-th turn of each side (1: every ply; 0: \
         only at expansion)",
    )
    .defaults_to("1")
    .needs_table()
    .aliases(&["oracle-every"]),
    EngineOption::mcts(
        "c",
        "C",
        "UCT exploration constant c of w/n + c*sqrt(ln t / n)",
    )
    .defaults_to("0.7"),
    EngineOption::mcts(
        "playout",
        "uniform|full",
        "the playouts, uniform (random moves to the end) or full (the game's policy with its \
         switches)",
    )
    .defaults_to("full"),
    EngineOption::both("time", "TIME", "Time per move, e.g. 500ms, 2s, 1.5s, 900us")
        .mcts_key()
        .ab_key(),
    EngineOption::both(
        "sims",
        "N",
        "Run exactly this many simulations per move instead of using --time (alpha-beta: \
         about this many nodes)",
    )
    .mcts_key(),
    EngineOption::both("tc", "BASE+INC", "a clock of its own")
        .no_flag()
        .mcts_key()
        .ab_key(),
    EngineOption::ab(
        "depth",
        "D",
        "the deepest iteration, in plies, within --time",
    )
    .defaults_to("64"),
    EngineOption::both(
        "quiesce",
        "PLIES",
        "The most plies, 0 for none, that a search looks past its horizon (alpha-beta's \
         depth, a new MCTS node's value) through positions that are not quiet",
    )
    .defaults_to("16")
    .mcts_key()
    .ab_key(),
    EngineOption::ab("hash", "MiB", "the transposition table's size in MiB").defaults_to("64"),
    EngineOption::ab(
        "eval",
        "ab|mcts",
        "the evaluation it searches with, its own or MCTS's",
    )
    .defaults_to("ab with --engine ab; without it, the default player's"),
    EngineOption::mcts("threads", "N", "search threads (see --parallel)").defaults_to(
        "1, as every search: a search's threads are asked for, while work split into \
         independent pieces (the arena's games, a table's build, a proof's check) takes every \
         core unless --jobs or --threads says",
    ),
    EngineOption::mcts(
        "parallel",
        "root|tree",
        "with --threads above 1, root (a tree per thread) or tree (one shared tree)",
    )
    .defaults_to("root"),
    EngineOption::mcts("nodes", "N", "most tree nodes").defaults_to("8388608"),
    EngineOption::both(
        "seed",
        "S",
        "Seed of the random numbers (identical seeds and --sims give identical moves)",
    )
    .mcts_key(),
    EngineOption::mcts(
        "eval-after",
        "N",
        "plies of a playout after which the evaluation decides it (0: play to the end)",
    )
    .defaults_to("20")
    .playout_switch(),
    EngineOption::mcts(
        "capture-weight",
        "W",
        "weight of captures of undefended pieces in playouts against 1 for other moves (1: \
         off)",
    )
    .defaults_to("4")
    .playout_switch(),
    EngineOption::mcts(
        "win-in-one",
        "on|off",
        "playouts take wins in one automatically",
    )
    .defaults_to("on")
    .playout_switch()
    .switches(&[off("no-win-in-one")]),
    EngineOption::mcts(
        "stop-threats",
        "on|off",
        "playouts capture pieces that threaten to win next move",
    )
    .defaults_to("on")
    .playout_switch()
    .switches(&[off("no-stop-threats")]),
    EngineOption::mcts(
        "probe-children",
        "WHEN",
        "when a new node's children are probed: expansion, next-visit or first-visit",
    )
    .defaults_to("expansion")
    .needs_table(),
    EngineOption::mcts(
        "imb",
        "ALPHA",
        "implicit minimax backups, the weight alpha of the evaluation's minimax value \
         against the playout mean in selection (0: off)",
    )
    .defaults_to("0"),
    EngineOption::mcts(
        "imb-decided",
        "P|off",
        "where a node's minimax value gives one side at least the winning chance P, its \
         children are ranked by their minimax values alone (backups at 1), so that a won \
         position makes progress instead of shuffling among moves whose playouts all win; \
         needs --imb above 0",
    )
    .defaults_to("off"),
    EngineOption::mcts(
        "prior",
        "N",
        "node priors, the virtual visits each new node starts with, scored at the \
         evaluation's winning chance (0: off)",
    )
    .defaults_to("0"),
    EngineOption::mcts(
        "prior-depth",
        "D",
        "plies of alpha-beta over the evaluation behind each new node's value (0: the \
         evaluation alone); a forced result it finds proves the node",
    )
    .defaults_to("0"),
    EngineOption::both(
        "net",
        "FILE|builtin|off",
        "The learned evaluation both engines search with: a model file from `quasar train \
         fit`, builtin (the model the game ships for the board) or off (the hand-written \
         evaluation)",
    )
    .defaults_to("builtin for MCTS where the game ships a model, else off")
    .mcts_key()
    .ab_key(),
    EngineOption::mcts(
        "leaf",
        "playout|eval",
        "what scores a simulation at an unproven leaf, playout (the policy plays it out) or \
         eval (the evaluation's winning chance, no playout; needs --imb or --prior above 0)",
    )
    .defaults_to("playout"),
    EngineOption::mcts(
        "expand-after",
        "N",
        "real visits a leaf has before it is expanded",
    )
    .defaults_to("1"),
    EngineOption::mcts(
        "verdicts",
        "on|off",
        "prove nodes at expansion by the game's sound verdicts",
    )
    .defaults_to("on")
    .switches(&[off("no-verdicts")]),
    EngineOption::mcts(
        "guard",
        "SHARE",
        "blunder guard, the share of each move's time a short alpha-beta search spends \
         checking MCTS's choice, vetoing a move that lets the opponent force a win (0: off)",
    )
    .defaults_to("0"),
    EngineOption::mcts(
        "check",
        "VISITS/PLIES",
        "forced-result checks, in which each node that reaches VISITS real visits is searched \
         PLIES deep for a forced win or loss, which proves it (off: none)",
    )
    .defaults_to("off"),
];

/// The option `player` specs take as `key`, if any.
pub fn key_of(player: Scope, key: &str) -> Option<&'static EngineOption> {
    OPTIONS
        .iter()
        .find(|o| o.name == key && o.is_key_of(player))
}

/// The keys `player` specs take, each as [`EngineOption::key_text_with`] writes it with
/// the texts `games` give for it, for a help.
pub fn keys_text(player: Scope, games: &dyn Fn(&EngineOption) -> GameTexts) -> String {
    let keys: Vec<String> = OPTIONS
        .iter()
        .filter(|o| o.is_key_of(player))
        .map(|o| o.key_text_with(&games(o)))
        .collect();
    keys.join(", ")
}

/// The length of [`key_names`]`(player)`.
const fn key_names_len(player: Scope) -> usize {
    let (mut len, mut i) = (0, 0);
    while i < OPTIONS.len() {
        if OPTIONS[i].is_key_of(player) {
            len += OPTIONS[i].name.len() + if len > 0 { 2 } else { 0 };
        }
        i += 1;
    }
    len
}

/// The names of the keys `player` specs take, joined by `, `, as bytes: a constant, so that
/// error messages can name them in their format strings.
const fn key_names<const N: usize>(player: Scope) -> [u8; N] {
    let mut out = [0u8; N];
    let (mut at, mut i) = (0, 0);
    while i < OPTIONS.len() {
        if OPTIONS[i].is_key_of(player) {
            if at > 0 {
                out[at] = b',';
                out[at + 1] = b' ';
                at += 2;
            }
            let name = OPTIONS[i].name.as_bytes();
            let mut j = 0;
            while j < name.len() {
                out[at] = name[j];
                at += 1;
                j += 1;
            }
        }
        i += 1;
    }
    out
}

const fn text(bytes: &'static [u8]) -> &'static str {
    match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("the options' names are UTF-8"),
    }
}

const MCTS_KEY_BYTES: [u8; key_names_len(Scope::Mcts)] = key_names(Scope::Mcts);
const AB_KEY_BYTES: [u8; key_names_len(Scope::AlphaBeta)] = key_names(Scope::AlphaBeta);

/// The keys an `mcts:` spec takes, for error messages: `tb, rule, every, ...`.
pub const MCTS_KEYS: &str = text(&MCTS_KEY_BYTES);

/// The keys an `ab:` spec takes, for error messages: `tb, time, tc, ...`.
pub const AB_KEYS: &str = text(&AB_KEY_BYTES);

/// A value the option `name` takes, as its key prints it back: the tests give every option
/// one, through its flag and its key.
pub fn example(name: &str) -> Option<&'static str> {
    Some(match name {
        "engine" => "ab",
        "tb" => "t.qtb",
        "table-cache" => "64",
        "rule" => "race",
        "every" | "threads" | "prior-depth" => "2",
        "c" => "0.4",
        "playout" => "uniform",
        "time" => "250ms",
        "sims" | "seed" | "expand-after" => "9",
        "tc" => "10s+100ms",
        "depth" => "7",
        "quiesce" => "4",
        "hash" => "128",
        "eval" => "mcts",
        "parallel" => "tree",
        "nodes" => "5000",
        "eval-after" => "0",
        "capture-weight" => "3",
        "win-in-one" | "stop-threats" | "verdicts" => "off",
        "probe-children" => "next-visit",
        "imb" => "0.25",
        "imb-decided" => "0.9",
        "prior" => "20",
        "net" => "m.qsrmodel",
        "leaf" => "eval",
        "guard" => "0.3",
        "check" => "20/4",
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
