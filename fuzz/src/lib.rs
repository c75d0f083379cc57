//! The fuzz targets' bodies and the invariants they check, shared by the cargo-fuzz binaries in
//! `fuzz_targets/` and by the seed generator (`examples/seeds.rs`).
//!
//! Every target checks the same three things of the engine's public API:
//! - no input makes it panic (libFuzzer reports a panic as a crash);
//! - an input the engine rejects leaves the game exactly as it was (its whole JSON record,
//!   compared as text or with `Game`'s `==`, the equality of everything a record holds);
//! - what it accepts round-trips: a game record through `to_json`/`from_json` (into an equal
//!   game), a position through its notation, rules through their JSON.
//!
//! An invariant that does not hold is reported by panicking with a message naming it.

use pachisi::{Game, MAX_STEPS, Node, Play, Roll, Rules, Step, StepKind};
use serde_json::Value;
use std::borrow::Cow;
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The rules a byte selects: every preset with its default options, then with two seats.
pub fn rules_list() -> &'static [Rules] {
    static LIST: OnceLock<Vec<Rules>> = OnceLock::new();
    LIST.get_or_init(|| {
        let presets: Vec<Rules> = pachisi::variants()
            .iter()
            .map(|v| Rules::preset(v).expect("every listed preset exists"))
            .collect();
        let two_seats = presets
            .iter()
            .filter_map(|r| r.with("seats", 2.into()).ok())
            .filter(|r| r.options() != Rules::preset(r.variant()).unwrap().options());
        let mut all = presets.clone();
        all.extend(two_seats);
        all
    })
}

/// The rules selected by `byte`.
pub fn rules_for(byte: u8) -> &'static Rules {
    let list = rules_list();
    &list[byte as usize % list.len()]
}

/// A small deterministic generator (splitmix64) for the choices of a seeded game.
pub struct Choices(u64);

impl Choices {
    /// Seeded.
    pub fn new(seed: u64) -> Choices {
        Choices(seed)
    }
    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % n as u64) as usize
    }
}

/// Plays up to `actions` actions of `game`: rolls with its own generator, plays chosen by
/// `choices`. Stops early when the game ends.
pub fn advance(game: &mut Game, choices: &mut Choices, actions: usize) {
    for _ in 0..actions {
        match game.node() {
            Node::Over => return,
            Node::Chance => {
                game.roll().expect("a roll at a chance node is legal");
            }
            Node::Decision => {
                let plays = game.legal_plays();
                assert!(
                    !plays.is_empty(),
                    "a decision node with no legal play: {}",
                    game.position()
                );
                let play = plays[choices.below(plays.len())];
                game.play(&play).expect("a listed legal play is legal");
            }
        }
    }
}

/// The seeded game a three-byte header describes: `[rules, seed, actions]`, then the rest.
pub fn seeded_game(data: &[u8]) -> Option<(Game, &[u8])> {
    let [r, seed, actions, rest @ ..] = data else {
        return None;
    };
    let mut game = Game::new(rules_for(*r), u64::from(*seed));
    advance(
        &mut game,
        &mut Choices::new(u64::from(*seed)),
        usize::from(*actions % 64),
    );
    Some((game, rest))
}

/// A seeded game ([`seeded_game`]) made once per process and header, with its record: the
/// targets that start from a seeded game clone it rather than replay up to 63 actions per input.
pub struct Prepared {
    game: Game,
    json: OnceCell<String>,
    nodes: OnceCell<Vec<Span>>,
    /// Whether [`game_tamper`] checked a game equal to this one ([`check_game`]).
    checked: Cell<bool>,
}

impl Prepared {
    /// The seeded game (clone it to change it).
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// Its whole record as JSON text (`Game::to_json`), computed on first use.
    pub fn json(&self) -> &str {
        self.json.get_or_init(|| {
            let json = self.game.to_json();
            PREPARED_BYTES.with(|b| b.set(b.get() + json.len()));
            json
        })
    }
    /// The nodes of its record ([`Tampered`]), computed on first use.
    fn nodes(&self) -> &[Span] {
        self.nodes.get_or_init(|| {
            let nodes = json_nodes(self.json(), 0);
            PREPARED_BYTES.with(|b| b.set(b.get() + nodes.len() * size_of::<Span>()));
            nodes
        })
    }
}

/// Bytes the table of prepared games may hold (then it starts again): records, node lists, and
/// [`FAMILY_BYTES`] for the games of each rules and seed.
const PREPARED_MAX_BYTES: usize = 256 << 20;

/// The 64 prepared games of one rules and seed, by actions played.
type Family = Rc<[Rc<Prepared>]>;

/// Bytes counted for the 64 games of one rules and seed (which share one history).
const FAMILY_BYTES: usize = 64 << 10;

thread_local! {
    /// The seeded games of each rules and seed, by actions played (0 to 63): one game played
    /// 63 actions, copied after each (the copies share their history, and so the text of each
    /// history entry once written).
    static PREPARED: RefCell<HashMap<[u8; 2], Family>> = RefCell::new(HashMap::new());
    static PREPARED_BYTES: Cell<usize> = const { Cell::new(0) };
}

/// [`seeded_game`] from a table: the same game for the same header, built on first use.
pub fn prepared_game(data: &[u8]) -> Option<(Rc<Prepared>, &[u8])> {
    let [r, seed, actions, rest @ ..] = data else {
        return None;
    };
    // Headers selecting the same game share an entry.
    let key = [(usize::from(*r) % rules_list().len()) as u8, *seed];
    let games = PREPARED.with(|table| {
        if let Some(games) = table.borrow().get(&key) {
            return Rc::clone(games);
        }
        let (mut game, _) = seeded_game(&[key[0], key[1], 0]).expect("a full header");
        let mut choices = Choices::new(u64::from(*seed));
        let mut games = Vec::with_capacity(64);
        for _ in 0..64 {
            games.push(Rc::new(Prepared {
                game: game.clone(),
                json: OnceCell::new(),
                nodes: OnceCell::new(),
                checked: Cell::new(false),
            }));
            // One action, as `seeded_game` plays them (`advance` goes on with the same choices).
            advance(&mut game, &mut choices, 1);
        }
        let games: Family = games.into();
        let mut table = table.borrow_mut();
        if PREPARED_BYTES.with(Cell::get) > PREPARED_MAX_BYTES {
            table.clear();
            PREPARED_BYTES.with(|b| b.set(0));
        }
        // The game and its history (some 60 entries of about 1 KB with their texts).
        PREPARED_BYTES.with(|b| b.set(b.get() + FAMILY_BYTES));
        table.insert(key, Rc::clone(&games));
        games
    });
    Some((Rc::clone(&games[usize::from(*actions % 64)]), rest))
}

/// `game`'s record must be `before` after a rejected `what`; returns the record. Compares the
/// whole texts (`Game::to_json`).
pub fn assert_unchanged(game: &Game, before: &str, what: &str, err: &str) -> String {
    let after = game.to_json();
    assert!(
        after == *before,
        "rejected {what} ({err}) changed the game\nbefore: {before}\nafter:  {after}"
    );
    after
}

/// `game` must be `before` after a rejected `what` (`Game`'s `==`: everything its record holds),
/// with as much to redo.
pub fn assert_same_game(game: &Game, before: &Game, what: &str, err: &str) {
    assert!(
        game == before && game.redo_len() == before.redo_len(),
        "rejected {what} ({err}) changed the game (redo: {} then {})\nbefore: {}\nafter:  {}",
        before.redo_len(),
        game.redo_len(),
        before.to_json(),
        game.to_json()
    );
}

/// Bytes of records [`assert_round_trip_once`] keeps (then it forgets them all).
const ROUND_TRIPPED_MAX: usize = 64 << 20;

thread_local! {
    static ROUND_TRIPPED: RefCell<(HashSet<String>, usize)> = RefCell::new((HashSet::new(), 0));
}

/// [`assert_round_trip`], skipped for a record (the whole text, compared exactly) already checked
/// by this process: the targets that start from seeded games end on the same records often.
pub fn assert_round_trip_once(game: &Game) {
    let json = game.to_json();
    if ROUND_TRIPPED.with(|seen| seen.borrow().0.contains(&json)) {
        return;
    }
    round_trip_record(game, &json);
    ROUND_TRIPPED.with(|seen| {
        let (set, bytes) = &mut *seen.borrow_mut();
        if *bytes + json.len() > ROUND_TRIPPED_MAX {
            set.clear();
            *bytes = 0;
        }
        *bytes += json.len();
        set.insert(json);
    });
}

/// The game's record must load back into an equal game (the same record).
pub fn assert_round_trip(game: &Game) {
    round_trip_record(game, &game.to_json());
}

/// Records [`round_trip_record`] checked in this process.
static ROUND_TRIPS: AtomicUsize = AtomicUsize::new(0);

/// `json` (the game's record) loads back into a game equal to it (`Game`'s `==`: everything
/// the record holds, and the events of every action besides), at the same position. Every 16th
/// record (the first of a process among them, so one input replayed alone is checked) must
/// also be written back the same by the game read, and be the text of the record as a JSON
/// value: `to_json` writes it from parts kept per history entry, `to_value` serializes the
/// whole game. Equal games write the same record (a test of the engine checks it), so comparing
/// the games checks the round trip; writing the game read every time (a new history, every
/// entry written afresh) would double the cost of the targets that start from a seeded game.
fn round_trip_record(game: &Game, json: &str) {
    let sampled = ROUND_TRIPS
        .fetch_add(1, Ordering::Relaxed)
        .is_multiple_of(16);
    if sampled {
        // Compared as text: a `Value` compared with a `&str` is a JSON string's comparison.
        let text = game.to_value().to_string();
        assert!(
            text == json,
            "to_json is not the text of to_value\nto_json:  {json}\nto_value: {text}"
        );
    }
    let back = Game::from_json(json)
        .unwrap_or_else(|e| panic!("a game's own record does not load ({e}): {json}"));
    assert!(
        back == *game,
        "a record does not load back into an equal game\nfirst:  {json}\nsecond: {}",
        back.to_json()
    );
    if sampled {
        let again = back.to_json();
        assert!(
            again == json,
            "a record does not round-trip\nfirst:  {json}\nsecond: {again}"
        );
    }
    assert_eq!(
        back.position(),
        game.position(),
        "round trip moved the position"
    );
}

/// The game's position must be accepted by its notation's parser and written back the same.
pub fn assert_position_round_trip(game: &Game) {
    let text = game.position();
    let back = Game::from_position(game.rules(), &text, 0)
        .unwrap_or_else(|e| panic!("position `{text}` of a game is rejected: {e}"));
    assert_eq!(back.position(), text, "a position does not round-trip");
}

/// A few actions on an accepted game, to reach the move generators from odd positions and rules.
fn play_on(mut game: Game, seed: u64, actions: usize) {
    advance(&mut game, &mut Choices::new(seed), actions);
}

/// Rules JSON: the input is JSON text given to `Rules::from_json` and, when it is an object,
/// overlaid on every preset (`Rules::overlay`). Accepted rules must round-trip through their
/// JSON, rebuild from their changed options, and play a short game without a panic.
pub fn rules_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut accepted = Vec::new();
    if let Ok(r) = Rules::from_json(text) {
        accepted.push(r);
    }
    if let Ok(Value::Object(opts)) = serde_json::from_str::<Value>(text) {
        for v in pachisi::variants() {
            let preset = Rules::preset(v).unwrap();
            if let Ok(r) = preset.overlay(&opts) {
                accepted.push(r);
            }
        }
    }
    for r in accepted {
        let json = r.to_json();
        let back = Rules::from_json(&json)
            .unwrap_or_else(|e| panic!("rules' own JSON is rejected ({e}): {json}"));
        assert!(back == r, "rules do not round-trip: {json}");
        let rebuilt = Rules::preset(r.variant())
            .unwrap()
            .overlay(&r.changed_options())
            .unwrap_or_else(|e| panic!("changed options of accepted rules rejected ({e}): {json}"));
        assert!(
            rebuilt == r,
            "changed options do not rebuild the rules: {json}"
        );
        play_on(Game::new(&r, data.len() as u64), 1, 40);
    }
}

/// Game JSON: the input is JSON text given to `Game::from_json`; see [`check_record`].
pub fn game_json(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        check_record(text);
    }
}

/// An accepted record must round-trip, undo back to its start through positions that its
/// notation accepts, and play on without a panic.
pub fn check_record(text: &str) {
    if let Ok(game) = Game::from_json(text) {
        check_game(game);
    }
}

/// The checks of [`check_record`] on a game read from a record.
pub fn check_game(game: Game) {
    assert_round_trip(&game);
    let mut g = game.clone();
    while g.history_len() > 0 {
        let before = g.history_len();
        g.undo().expect("undo with history left");
        assert_eq!(
            g.history_len(),
            before - 1,
            "undo took back more than one action"
        );
        if g.taken().is_empty() {
            assert_position_round_trip(&g);
        }
    }
    play_on(game, 7, 20);
}

/// Tampered game records: `[rules, seed, actions]` make a seeded game whose record is then
/// edited, each 4 bytes one edit `[node, how, value, value]` (a JSON node chosen by index,
/// replaced by a number, string, null or boolean, removed, or an array entry repeated); the
/// edited record goes to `Game::from_json` ([`check_record`]). The seeded game and its record
/// come from [`prepared_game`]; the record is edited as text ([`tampered_record`]).
pub fn game_tamper(data: &[u8]) {
    let Some((prepared, edits)) = prepared_game(data) else {
        return;
    };
    let text = tampered_record(&prepared, edits);
    let Ok(game) = Game::from_json(&text) else {
        return;
    };
    // Most records that load are the seeded game's own (the edits changed nothing it keeps):
    // the checks of a game equal to it give the same results, so they run once per entry, on
    // the prepared game (whose record is written from the entries' texts it keeps).
    if game == *prepared.game() {
        if !prepared.checked.replace(true) {
            check_game(prepared.game().clone());
        }
        return;
    }
    check_game(game);
}

/// The prepared game's record with `edits` applied (up to 8, 4 bytes each, [`game_tamper`]):
/// exactly the text of its record as a `serde_json::Value` with each edit made to the node it
/// selects, as [`Tampered`] edits the text itself.
pub fn tampered_record(prepared: &Prepared, edits: &[u8]) -> String {
    let mut record = Tampered {
        text: Cow::Borrowed(prepared.json()),
        nodes: Cow::Borrowed(prepared.nodes()),
    };
    for edit in edits.chunks_exact(4).take(8) {
        record.apply(edit);
    }
    record.text.into_owned()
}

/// A JSON node of a text: where it starts (`entry`: its key, for a member of an object) and
/// ends, as byte offsets.
#[derive(Clone, Copy, Debug)]
struct Span {
    entry: u32,
    start: u32,
    end: u32,
}

/// The nodes of `text` (compact JSON, as `serde_json` writes it), in pre-order (a node, then
/// each of its entries' values), their offsets moved by `base`: the order `serde_json::Value`
/// walks them, objects' keys in the order written (sorted, in a record).
fn json_nodes(text: &str, base: usize) -> Vec<Span> {
    let mut out = Vec::new();
    scan_node(text.as_bytes(), 0, 0, base, &mut out);
    out
}

/// Scans the node at `i` (whose entry starts at `entry`), adding it and its descendants to
/// `out`; returns the offset after it.
fn scan_node(b: &[u8], i: usize, entry: usize, base: usize, out: &mut Vec<Span>) -> usize {
    let at = |x: usize| (base + x) as u32;
    let me = out.len();
    out.push(Span {
        entry: at(entry),
        start: at(i),
        end: 0,
    });
    let end = match b[i] {
        open @ (b'[' | b'{') => {
            let close = if open == b'[' { b']' } else { b'}' };
            let mut j = i + 1;
            if b[j] == close {
                j + 1
            } else {
                loop {
                    let entry = j;
                    if open == b'{' {
                        j = skip_string(b, j) + 1;
                    }
                    j = scan_node(b, j, entry, base, out);
                    if b[j] == b',' {
                        j += 1;
                    } else {
                        break j + 1;
                    }
                }
            }
        }
        b'"' => skip_string(b, i),
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b']' | b'}') {
                j += 1;
            }
            j
        }
    };
    out[me].end = at(end);
    end
}

/// The offset after the JSON string starting at `i`.
fn skip_string(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while b[j] != b'"' {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    j + 1
}

/// A record being tampered with: its text and its nodes, both borrowed from the prepared game
/// until the first edit that changes something.
struct Tampered<'a> {
    text: Cow<'a, str>,
    nodes: Cow<'a, [Span]>,
}

impl Tampered<'_> {
    /// Applies `edit` to the node it selects (by index in pre-order, of all the nodes).
    fn apply(&mut self, edit: &[u8]) {
        let nodes = &self.nodes;
        let k = (usize::from(edit[0]) * 7 + usize::from(edit[3])) % nodes.len();
        let Span { entry, start, end } = nodes[k];
        // The node's descendants follow it, up to the first node past its end.
        let last = k + nodes[k + 1..].partition_point(|n| n.start < end);
        // Its entries (for a container), each up to where the next one starts.
        let mut entries = Vec::new();
        let mut j = k + 1;
        while j <= last {
            entries.push(&self.text[nodes[j].entry as usize..nodes[j].end as usize]);
            let child_end = nodes[j].end;
            j += 1 + nodes[j + 1..=last].partition_point(|n| n.start < child_end);
        }
        let old = &self.text[start as usize..end as usize];
        let Some(new) = edited_node(old, entries, edit) else {
            return;
        };
        let mut new_nodes = json_nodes(&new, start as usize);
        new_nodes[0].entry = entry;
        let delta = new.len() as i64 - i64::from(end - start);
        let shift = |x: u32| (i64::from(x) + delta) as u32;
        let nodes = self.nodes.to_mut();
        for n in &mut nodes[..k] {
            // The ones before it that do not end before it contain it.
            if n.end >= end {
                n.end = shift(n.end);
            }
        }
        for n in &mut nodes[last + 1..] {
            *n = Span {
                entry: shift(n.entry),
                start: shift(n.start),
                end: shift(n.end),
            };
        }
        nodes.splice(k..=last, new_nodes);
        self.text
            .to_mut()
            .replace_range(start as usize..end as usize, &new);
    }
}

/// The text of the node `old` (whose entries, for a container, are `entries`: the values of an
/// array, the `"key":value` members of an object) after `edit`, or `None` when it does not
/// change it: a number, negative number, huge number, fraction, null, boolean or string in its
/// place; an array entry or object key removed; an array entry repeated; two array entries
/// swapped; a number off by one (anything else becomes a small array).
fn edited_node(old: &str, mut entries: Vec<&str>, edit: &[u8]) -> Option<String> {
    let small = i64::from(edit[2]);
    let array = old.starts_with('[');
    let container = |entries: Vec<&str>| {
        let (open, close) = if array { ("[", "]") } else { ("{", "}") };
        format!("{open}{}{close}", entries.join(","))
    };
    let text = match edit[1] % 12 {
        0 | 1 => Value::from(small).to_string(),
        2 => Value::from(small - 128).to_string(),
        3 => Value::from(u64::from(edit[2]) << (edit[3] % 64)).to_string(),
        4 => Value::from(f64::from(edit[2]) / 3.0).to_string(),
        5 => "null".into(),
        6 => Value::Bool(edit[2].is_multiple_of(2)).to_string(),
        7 => {
            let words = ["", "x", "5-3", "parcheesi", "backgammon", "move"];
            Value::from(words[usize::from(edit[2]) % words.len()]).to_string()
        }
        // An array loses an entry, an object a key.
        8 if !entries.is_empty() => {
            entries.remove(usize::from(edit[2]) % entries.len());
            container(entries)
        }
        // An array entry repeated (a history or log entry played twice).
        9 if array && !entries.is_empty() => {
            let i = usize::from(edit[2]) % entries.len();
            entries.insert(i, entries[i]);
            container(entries)
        }
        // Two array entries swapped (events out of order).
        10 if array && entries.len() > 1 => {
            let (i, n) = (usize::from(edit[2]) % entries.len(), entries.len());
            entries.swap(i, (i + 1) % n);
            container(entries)
        }
        8..=10 => return None,
        // A number off by one either way.
        _ => match serde_json::from_str::<Value>(old) {
            Ok(Value::Number(n)) => {
                Value::from(n.as_i64().unwrap_or(0) + i64::from(edit[2] % 3) - 1).to_string()
            }
            _ => Value::from(vec![small, small % 7]).to_string(),
        },
    };
    Some(text)
}

/// Positions: `[rules]` then the text given to `Game::from_position`. An accepted position must
/// be written back by the notation and read again unchanged, its game's record must round-trip,
/// and the game must play on without a panic.
pub fn position(data: &[u8]) {
    let [r, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let rules = rules_for(*r);
    let Ok(game) = Game::from_position(rules, text, 0) else {
        return;
    };
    assert_position_round_trip(&game);
    assert_round_trip(&game);
    play_on(game, u64::from(*r), 12);
}

/// Play text: a seeded game (`[rules, seed, actions]`, [`seeded_game`]) and the text given to
/// `Game::parse_play` and `Game::play_notation`. A parsed play must be legal, written back the
/// same way it parses, and made by `play_notation`; a rejected text changes nothing. The seeded
/// game and its record come from [`prepared_game`].
pub fn play_text(data: &[u8]) {
    let Some((prepared, rest)) = prepared_game(data) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut game = prepared.game().clone();
    match game.parse_play(text) {
        Ok(play) => {
            assert_eq!(
                game.node(),
                Node::Decision,
                "a play parsed outside a decision"
            );
            let written = game.format_play(&play);
            let again = game
                .parse_play(&written)
                .unwrap_or_else(|e| panic!("the notation `{written}` of a parsed play fails: {e}"));
            assert_eq!(
                game.format_play(&again),
                written,
                "play notation does not round-trip"
            );
            let seat = game.to_move();
            game.play_notation(text)
                .unwrap_or_else(|e| panic!("parsed `{text}` but cannot play it: {e}"));
            let last = game.last_play();
            assert_eq!(last, Some((seat, play)), "play_notation made another play");
            assert_round_trip_once(&game);
        }
        Err(e) => {
            // `parse_play` borrows the game immutably, so only `play_notation` could change it;
            // one comparison after both covers both.
            let err = game
                .play_notation(text)
                .expect_err("play_notation accepts what parse_play rejects");
            assert_unchanged(
                &game,
                prepared.json(),
                "play text",
                &format!("parse_play: {e}; play_notation: {err}"),
            );
        }
    }
}

fn step_from(bytes: &[u8]) -> Step {
    let b = |i: usize| bytes.get(i).copied().unwrap_or(0);
    Step {
        seat: b(0),
        piece: b(1),
        from: b(2),
        to: b(3),
        value: b(4),
        count: b(5),
        captured: b(6),
        kind: StepKind::ALL[usize::from(b(7)) % StepKind::ALL.len()],
    }
}

fn set_field(step: &mut Step, field: u8, value: u8) {
    match field % 7 {
        0 => step.seat = value,
        1 => step.piece = value,
        2 => step.from = value,
        3 => step.to = value,
        4 => step.value = value,
        5 => step.count = value,
        _ => step.captured = value,
    }
}

/// Step sequences: a seeded game (`[rules, seed, actions]`, [`seeded_game`]), then operations,
/// each an opcode and its operands: a legal step by index, a raw step (8 bytes), a legal step
/// with one field changed, `finish_play`, `undo`, a play of raw steps, a legal play by index,
/// `set_roll` of raw dice or cowries, `roll`. A rejected operation must leave the game unchanged;
/// an accepted one is undone exactly by `undo`; the final record round-trips.
///
/// The seeded game comes from [`prepared_game`]. Games are compared with `Game`'s `==`, the
/// equality of everything a record holds (position, steps taken, generator, the whole history
/// with every event, the log), which compares a game with a copy of itself made a few
/// operations before in proportion to those operations, not to the length of the game; a
/// rejected operation must also leave what `redo` could make again.
pub fn steps(data: &[u8]) {
    let Some((prepared, mut ops)) = prepared_game(data) else {
        return;
    };
    let mut game = prepared.game().clone();
    // The game before each accepted operation, for `undo`.
    let mut done: Vec<Game> = Vec::new();
    let mut count = 0;
    while let [op, rest @ ..] = ops {
        count += 1;
        if count > 64 {
            break;
        }
        let before = game.clone();
        let take = |n: usize| (&rest[..n.min(rest.len())], &rest[n.min(rest.len())..]);
        let (what, result, next): (&str, pachisi::Result<()>, &[u8]) = match op % 10 {
            0 => {
                let (arg, next) = take(1);
                let legal = game.legal_steps();
                if legal.is_empty() {
                    ops = next;
                    continue;
                }
                let step = legal[usize::from(arg.first().copied().unwrap_or(0)) % legal.len()];
                let r = game.step(&step);
                assert!(r.is_ok(), "a listed legal step {step:?} is refused: {r:?}");
                ("legal step", r, next)
            }
            1 => {
                let (arg, next) = take(8);
                let step = step_from(arg);
                let legal = game.legal_steps().contains(&step);
                let r = game.step(&step);
                assert_eq!(r.is_ok(), legal, "step {step:?} accepted iff listed: {r:?}");
                ("raw step", r, next)
            }
            2 => {
                let (arg, next) = take(3);
                let legal = game.legal_steps();
                if legal.is_empty() || arg.len() < 3 {
                    ops = next;
                    continue;
                }
                let mut step = legal[usize::from(arg[0]) % legal.len()];
                set_field(&mut step, arg[1], arg[2]);
                let listed = legal.contains(&step);
                let r = game.step(&step);
                assert_eq!(
                    r.is_ok(),
                    listed,
                    "step {step:?} accepted iff listed: {r:?}"
                );
                ("changed step", r, next)
            }
            3 => ("finish_play", game.finish_play(), rest),
            4 => {
                let r = game.undo();
                if r.is_ok() {
                    if let Some(prev) = done.pop() {
                        assert!(
                            game == prev,
                            "undo did not restore\nwant: {}\ngot:  {}",
                            prev.to_json(),
                            game.to_json()
                        );
                    }
                    ops = rest;
                    continue;
                }
                ("undo", r, rest)
            }
            5 => {
                let (arg, next) = take(1);
                let n = usize::from(arg.first().copied().unwrap_or(0)) % (MAX_STEPS + 1);
                let (raw, next) = (
                    &next[..(8 * n).min(next.len())],
                    &next[(8 * n).min(next.len())..],
                );
                let play = Play::from_steps(&raw.chunks(8).map(step_from).collect::<Vec<_>>());
                ("raw play", game.play(&play), next)
            }
            6 => {
                let (arg, next) = take(1);
                let plays = game.legal_plays();
                if plays.is_empty() {
                    ops = next;
                    continue;
                }
                let play = plays[usize::from(arg.first().copied().unwrap_or(0)) % plays.len()];
                let r = game.play(&play);
                assert!(r.is_ok(), "a listed legal play is refused: {r:?}");
                ("legal play", r, next)
            }
            7 => {
                let (arg, next) = take(2);
                let roll = match arg {
                    [a, b] if a % 4 != 0 => Roll::Dice([a % 8, *b % 8]),
                    [_, b] => Roll::Cowries(*b % 8),
                    _ => Roll::Dice([0, 0]),
                };
                ("set_roll", game.set_roll(roll), next)
            }
            8 => ("roll", game.roll().map(|_| ()), rest),
            _ => {
                // A chance outcome the game lists must be accepted by `set_roll`.
                let (arg, next) = take(1);
                let outcomes = game.chance_outcomes();
                if outcomes.is_empty() {
                    ops = next;
                    continue;
                }
                let o = outcomes[usize::from(arg.first().copied().unwrap_or(0)) % outcomes.len()];
                let r = game.set_roll(o.roll);
                assert!(r.is_ok(), "a listed roll {:?} is refused: {r:?}", o.roll);
                ("listed roll", r, next)
            }
        };
        match result {
            Ok(()) => done.push(before),
            Err(e) => assert_same_game(&game, &before, what, &e.to_string()),
        }
        ops = next;
    }
    assert_round_trip_once(&game);
}
