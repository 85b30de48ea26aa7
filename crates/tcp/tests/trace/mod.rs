//! Scripted traces for the sans-IO sender: a small packetdrill-like
//! language (see `scripts/README.md` for the syntax) that drives a
//! [`Sender`] with ACKs and timer firings at explicit times and checks what
//! it sends and the state it reaches.
//!
//! Two functions touch the sender's API beyond `start`/`on_ack`/`on_timer`/
//! `next_wakeup`: [`build`] (script options to variant, `SenderConfig` and
//! parameters) and [`probe`] (an `expect` key to a value read from the
//! sender). When the sender is refactored, those are the places to adapt.

use reorderlab_sim::Time;
use reorderlab_tcp::segment::{AckSegment, DataSegment, SackBlock, TxKind};
use reorderlab_tcp::{Sender, SenderConfig};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

// ---------------------------------------------------------------------------
// Script options and sender construction
// ---------------------------------------------------------------------------

pub use reorderlab_tcp::sender::NewRenoTimer;

/// Everything the header of a script sets: `variant`, `option` and `param` lines.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: String,
    pub mss: u32,
    pub iw: u32,
    pub sack: Option<bool>,
    pub dsack: Option<bool>,
    pub timestamps: bool,
    pub limited_transmit: bool,
    pub min_rto: Time,
    pub max_rto: Time,
    pub dupthresh: u32,
    /// Segments in the transfer (None: unending bulk transfer).
    pub total_segs: Option<u64>,
    pub newreno_timer: Option<NewRenoTimer>,
    /// Variant parameters (`param alpha=0.999`).
    pub params: BTreeMap<String, f64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: String::new(),
            mss: 1000,
            iw: 10,
            sack: None,
            dsack: None,
            timestamps: false,
            limited_transmit: true,
            min_rto: Time::from_secs(1),
            max_rto: Time::from_secs(60),
            dupthresh: 3,
            total_segs: None,
            newreno_timer: None,
            params: BTreeMap::new(),
        }
    }
}

/// The `option` keys and what each takes: the one list to extend when the
/// sender grows an option (then map it in [`build`]).
const OPTION_KEYS: &[(&str, &str)] = &[
    ("mss", "SMSS in bytes"),
    ("iw", "initial window in segments"),
    ("sack", "on|off (default: the variant's)"),
    ("dsack", "on|off (default: the variant's)"),
    ("timestamps", "on|off"),
    ("limited_transmit", "on|off"),
    ("min_rto", "a duration, e.g. 1s or 200ms"),
    ("max_rto", "a duration"),
    ("dupthresh", "an integer"),
    ("total", "segments in the transfer (default: unending)"),
    ("newreno_timer", "impatient|slow-but-steady"),
];

fn set_option(o: &mut Options, key: &str, val: &str) -> Result<(), String> {
    let bad = |what: &str| format!("option {key}: expected {what}, got {val:?}");
    match key {
        "mss" => o.mss = val.parse().map_err(|_| bad("bytes"))?,
        "iw" => o.iw = val.parse().map_err(|_| bad("segments"))?,
        "sack" => o.sack = Some(on_off(val).ok_or_else(|| bad("on|off"))?),
        "dsack" => o.dsack = Some(on_off(val).ok_or_else(|| bad("on|off"))?),
        "timestamps" => o.timestamps = on_off(val).ok_or_else(|| bad("on|off"))?,
        "limited_transmit" => o.limited_transmit = on_off(val).ok_or_else(|| bad("on|off"))?,
        "min_rto" => o.min_rto = parse_duration(val).ok_or_else(|| bad("a duration"))?,
        "max_rto" => o.max_rto = parse_duration(val).ok_or_else(|| bad("a duration"))?,
        "dupthresh" => o.dupthresh = val.parse().map_err(|_| bad("an integer"))?,
        "total" => o.total_segs = Some(val.parse().map_err(|_| bad("segments"))?),
        "newreno_timer" => {
            o.newreno_timer = Some(match val {
                "impatient" => NewRenoTimer::Impatient,
                "slow-but-steady" => NewRenoTimer::SlowButSteady,
                _ => return Err(bad("impatient|slow-but-steady")),
            })
        }
        _ => {
            let known: Vec<String> = OPTION_KEYS
                .iter()
                .map(|(k, d)| format!("{k} ({d})"))
                .collect();
            return Err(format!(
                "unknown option {key:?}; expected one of: {}",
                known.join(", ")
            ));
        }
    }
    Ok(())
}

fn on_off(v: &str) -> Option<bool> {
    match v {
        "on" | "true" | "yes" => Some(true),
        "off" | "false" | "no" => Some(false),
        _ => None,
    }
}

/// The one place where script options become a sender.
pub fn build(o: &Options) -> Result<Sender, String> {
    let v = reorderlab_tcp::variant::find(&o.variant).ok_or_else(|| {
        format!(
            "unknown variant {:?}; expected one of: {}",
            o.variant,
            reorderlab_tcp::variant::names().join(", ")
        )
    })?;
    v.check_params(&o.params).map_err(|(_, e)| e)?;
    let cfg = SenderConfig {
        mss: o.mss,
        total_bytes: o.total_segs.map(|n| n * o.mss as u64),
        initial_window: o.iw,
        min_rto: o.min_rto,
        max_rto: o.max_rto,
        timestamps: o.timestamps,
        sack: o.sack.unwrap_or(v.sack),
        dsack: o.dsack.unwrap_or(v.dsack),
        limited_transmit: o.limited_transmit,
        dupthresh: o.dupthresh,
        newreno_timer: o.newreno_timer.unwrap_or_default(),
    };
    Ok(v.sender(cfg, v.default_cc(), &o.params))
}

// ---------------------------------------------------------------------------
// State probes
// ---------------------------------------------------------------------------

/// A value read from the sender.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Num(f64),
    Bool(bool),
    /// A time or duration; None for "no timer".
    Time(Option<Time>),
}

/// The keys `expect` accepts, with their meaning (for error messages and the README).
pub const PROBE_KEYS: &[(&str, &str)] = &[
    ("cwnd", "congestion window, segments"),
    (
        "ssthresh",
        "slow-start threshold, segments (inf before the first loss)",
    ),
    ("pipe", "RFC 6675 pipe, segments"),
    (
        "flight",
        "segments sent and not cumulatively ACKed (FlightSize)",
    ),
    ("una", "SND.UNA, segment number"),
    ("nxt", "SND.NXT (highest sent + 1), segment number"),
    ("recover", "recover / RecoveryPoint, segment number"),
    ("in_recovery", "true|false"),
    ("dupacks", "duplicate ACKs since SND.UNA last advanced"),
    ("dupthresh", "DupThresh in force"),
    ("rto", "current RTO, back-off included"),
    ("srtt", "RFC 6298 SRTT (none before a sample)"),
    ("rttvar", "RFC 6298 RTTVAR"),
    ("wakeup", "next_wakeup() (none if no timer)"),
    ("segments_sent", "counter"),
    ("retransmissions", "counter"),
    ("fast_retransmits", "counter"),
    ("timeouts", "counter"),
    ("spurious", "recoveries found spurious by DSACK"),
    ("pr_srtt", "TCP-PR srtt of eq. (2)"),
    ("mxrtt", "TCP-PR mxrtt = beta * srtt"),
];

/// The one place where the sender's state is read.
fn tcp_pr(s: &Sender) -> Option<&reorderlab_tcp::sender::TcpPr> {
    match &s.loss {
        reorderlab_tcp::sender::LossDetection::TcpPr(p) => Some(p),
        _ => None,
    }
}

pub fn probe(s: &Sender, key: &str) -> Option<Value> {
    use Value::*;
    Some(match key {
        "cwnd" => Num(s.cwnd),
        "ssthresh" => Num(s.ssthresh),
        "pipe" => Num(s.sb.pipe() as f64),
        "flight" => Num(s.sb.packets_out() as f64),
        "una" => Num(s.sb.una() as f64),
        "nxt" => Num(s.sb.nxt() as f64),
        "recover" => Num(s.recover as f64),
        "in_recovery" => Bool(s.in_recovery),
        "dupacks" => Num(s.dupacks as f64),
        "dupthresh" => Num(s.dupthresh() as f64),
        "rto" => Time(Some(s.rto())),
        "srtt" => Time(s.rtt.srtt),
        "rttvar" => Time(s.rtt.srtt.map(|_| s.rtt.rttvar)),
        "wakeup" => Time(s.next_wakeup()),
        "segments_sent" => Num(s.stats.segments_sent as f64),
        "retransmissions" => Num(s.stats.retransmissions as f64),
        "fast_retransmits" => Num(s.stats.fast_retransmits as f64),
        "timeouts" => Num(s.stats.timeouts as f64),
        "spurious" => Num(s.stats.spurious_detected as f64),
        "pr_srtt" => Time(tcp_pr(s)?.srtt),
        "mxrtt" => Time(Some(tcp_pr(s)?.mxrtt)),
        _ => return None,
    })
}

// ---------------------------------------------------------------------------
// Script syntax tree
// ---------------------------------------------------------------------------

/// What a line does to the sender.
#[derive(Clone, Debug)]
enum Event {
    Start,
    Ack {
        cum: u64,
        sacks: Vec<(u64, u64)>,
        dsack: Option<(u64, u64)>,
        ecr: Option<Time>,
        rwnd: Option<u64>,
    },
    /// on_timer at the line's time.
    Timer,
    /// next_wakeup() must equal the line's time; then on_timer then.
    Wakeup,
}

/// A segment the sender emitted, in script terms. In an expected list,
/// `kind: None` (`resend` in a script) stands for any retransmission kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sent {
    kind: Option<TxKind>,
    seg: u64,
}

impl Sent {
    /// Whether the actually sent `got` satisfies this expected segment.
    fn admits(&self, got: &Sent) -> bool {
        self.seg == got.seg
            && match (self.kind, got.kind) {
                (None, Some(k)) => k.is_retransmission(),
                (w, g) => w == g,
            }
    }
}

/// The `-> ...` part: None means "not checked" (`-> *`).
type OutputSpec = Option<Vec<Sent>>;

#[derive(Clone, Debug)]
struct Expect {
    key: String,
    /// Accepted values (`cwnd=2|5`: either, where the RFC allows a choice).
    /// Each with its absolute tolerance, in the value's unit (ns for times).
    want: Vec<(Value, f64)>,
    text: String,
}

#[derive(Clone, Debug)]
enum Step {
    Event {
        at: Time,
        event: Event,
        output: OutputSpec,
    },
    Expect(Vec<Expect>),
}

#[derive(Clone, Debug)]
struct Line {
    no: usize,
    text: String,
    step: Step,
}

#[derive(Debug)]
pub struct Script {
    pub name: String,
    pub opts: Options,
    lines: Vec<Line>,
}

// ---------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------

/// A parse error: file:line and what was expected.
#[derive(Debug)]
pub struct ParseError {
    pub file: String,
    pub line: usize,
    pub text: String,
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: parse error: {}\n    {}",
            self.file, self.line, self.msg, self.text
        )
    }
}

/// `100ms`, `10.5ms`, `1s`, `1.25s`, `250us`; None if not a duration.
pub fn parse_duration(t: &str) -> Option<Time> {
    let (num, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1e6)
    } else if let Some(n) = t.strip_suffix("us") {
        (n, 1e3)
    } else if let Some(n) = t.strip_suffix("ns") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1e9)
    } else {
        return None;
    };
    if num.is_empty() || !num.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let x: f64 = num.parse().ok()?;
    Some(Time((x * scale).round() as u64))
}

/// `7` or `3-5` (inclusive) as a segment range `[a, b]`.
fn parse_range(t: &str) -> Option<(u64, u64)> {
    match t.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (a.parse().ok()?, b.parse().ok()?);
            (a <= b).then_some((a, b))
        }
        None => {
            let a = t.parse().ok()?;
            Some((a, a))
        }
    }
}

/// An output kind word: Some(None) for `resend` (any retransmission).
fn kind_of(word: &str) -> Option<Option<TxKind>> {
    Some(match word {
        "send" => Some(TxKind::New),
        "fast-retransmit" => Some(TxKind::FastRetransmit),
        "timeout" => Some(TxKind::Timeout),
        "retransmit" => Some(TxKind::Retransmit),
        "resend" => None,
        _ => return None,
    })
}

fn kind_word(k: Option<TxKind>) -> &'static str {
    match k {
        Some(TxKind::New) => "send",
        Some(TxKind::FastRetransmit) => "fast-retransmit",
        Some(TxKind::Timeout) => "timeout",
        Some(TxKind::Retransmit) => "retransmit",
        None => "resend",
    }
}

const OUTPUT_HELP: &str = "expected `none`, `*`, or items like `send 10-11`, `fast-retransmit 1`, \
     `retransmit 3 5`, `timeout 1`, `resend 4` separated by commas";

fn parse_output(text: &str) -> Result<OutputSpec, String> {
    let text = text.trim();
    match text {
        "" => return Err(format!("nothing after `->`; {OUTPUT_HELP}")),
        "*" => return Ok(None),
        "none" => return Ok(Some(Vec::new())),
        _ => {}
    }
    let mut v = Vec::new();
    for item in text.split(',') {
        let mut w = item.split_whitespace();
        let Some(kw) = w.next() else {
            return Err(format!("empty item in output list; {OUTPUT_HELP}"));
        };
        let kind =
            kind_of(kw).ok_or_else(|| format!("unknown output kind {kw:?}; {OUTPUT_HELP}"))?;
        let mut any = false;
        for r in w {
            let (a, b) = parse_range(r).ok_or_else(|| {
                format!("expected a segment or range like 3-5 after {kw}, got {r:?}")
            })?;
            v.extend((a..=b).map(|seg| Sent { kind, seg }));
            any = true;
        }
        if !any {
            return Err(format!("expected segments after {kw}"));
        }
    }
    Ok(Some(v))
}

fn parse_ack(words: &[&str]) -> Result<Event, String> {
    let help = "expected `ack N [sack A-B ...] [dsack A-B] [ecr T] [rwnd W]`";
    let cum = words
        .first()
        .and_then(|w| w.parse().ok())
        .ok_or_else(|| format!("{help}: N, the next segment expected, is missing"))?;
    let (mut sacks, mut dsack, mut ecr, mut rwnd) = (Vec::new(), None, None, None);
    let mut i = 1;
    let mut mode = "";
    while i < words.len() {
        let w = words[i];
        match w {
            "sack" | "dsack" | "ecr" | "rwnd" => {
                mode = w;
                let Some(arg) = words.get(i + 1) else {
                    return Err(format!("{help}: nothing after {w}"));
                };
                match w {
                    "sack" => sacks
                        .push(parse_range(arg).ok_or_else(|| format!("bad SACK block {arg:?}"))?),
                    "dsack" => {
                        if dsack.is_some() {
                            return Err("only one dsack block per ACK (RFC 2883)".into());
                        }
                        dsack = Some(
                            parse_range(arg).ok_or_else(|| format!("bad DSACK block {arg:?}"))?,
                        )
                    }
                    "ecr" => {
                        ecr = Some(
                            parse_duration(arg)
                                .ok_or_else(|| format!("ecr: expected a time, got {arg:?}"))?,
                        )
                    }
                    _ => {
                        rwnd = Some(
                            arg.parse()
                                .map_err(|_| format!("rwnd: expected segments, got {arg:?}"))?,
                        )
                    }
                }
                i += 2;
            }
            // `sack 3-4 6-7`: further blocks after a `sack`.
            _ if mode == "sack" && parse_range(w).is_some() => {
                sacks.push(parse_range(w).unwrap());
                i += 1;
            }
            _ => return Err(format!("{help}: unexpected {w:?}")),
        }
    }
    Ok(Event::Ack {
        cum,
        sacks,
        dsack,
        ecr,
        rwnd,
    })
}

/// One expected value: `5`, `5.2±0.01`, `true`, `300ms`, `none`, `inf`;
/// returns the value and its absolute tolerance (ns for times).
fn parse_value(key: &str, val: &str) -> Result<(Value, f64), String> {
    let (val, tol) = match val.split_once('±').or_else(|| val.split_once("+-")) {
        Some((v, t)) => (v, Some(t)),
        None => (val, None),
    };
    Ok(match val {
        "true" => (Value::Bool(true), 0.0),
        "false" => (Value::Bool(false), 0.0),
        "none" => (Value::Time(None), 0.0),
        _ => {
            if let Some(t) = parse_duration(val) {
                let tol = match tol {
                    Some(t) => {
                        parse_duration(t)
                            .ok_or_else(|| {
                                format!("{key}: expected a duration tolerance, got {t:?}")
                            })?
                            .0 as f64
                    }
                    None => 0.0,
                };
                (Value::Time(Some(t)), tol)
            } else {
                let x: f64 = if val == "inf" {
                    f64::INFINITY
                } else {
                    val.parse().map_err(|_| {
                        format!(
                            "{key}: expected a number, true/false, a duration or none, got {val:?}"
                        )
                    })?
                };
                let tol = match tol {
                    Some(t) => t
                        .parse()
                        .map_err(|_| format!("{key}: expected a numeric tolerance, got {t:?}"))?,
                    None => 1e-9,
                };
                (Value::Num(x), tol)
            }
        }
    })
}

fn parse_expects(words: &[&str]) -> Result<Vec<Expect>, String> {
    if words.is_empty() {
        return Err("expected `expect key=value ...`".into());
    }
    let mut v = Vec::new();
    for w in words {
        let (key, val) = w
            .split_once('=')
            .ok_or_else(|| format!("expected key=value, got {w:?}"))?;
        if !PROBE_KEYS.iter().any(|(k, _)| *k == key) {
            let known: Vec<&str> = PROBE_KEYS.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "unknown expect key {key:?}; expected one of: {}",
                known.join(", ")
            ));
        }
        let want = val
            .split('|')
            .map(|a| parse_value(key, a))
            .collect::<Result<Vec<_>, _>>()?;
        v.push(Expect {
            key: key.to_string(),
            want,
            text: w.to_string(),
        });
    }
    Ok(v)
}

pub fn parse(name: &str, src: &str) -> Result<Script, ParseError> {
    let mut opts = Options::default();
    let mut lines: Vec<Line> = Vec::new();
    let mut last_time: Option<Time> = None;
    let mut have_variant = false;
    for (i, raw) in src.lines().enumerate() {
        let no = i + 1;
        let err = |msg: String| ParseError {
            file: name.to_string(),
            line: no,
            text: raw.trim().to_string(),
            msg,
        };
        let code = raw.split('#').next().unwrap_or("").trim();
        if code.is_empty() {
            continue;
        }
        let words: Vec<&str> = code.split_whitespace().collect();
        let header = !lines.is_empty();
        match words[0] {
            "variant" | "option" | "param" if header => {
                return Err(err(format!(
                    "`{}` must come before the first event",
                    words[0]
                )))
            }
            "variant" => {
                if words.len() != 2 {
                    return Err(err("expected `variant NAME`".into()));
                }
                opts.variant = words[1].to_string();
                have_variant = true;
            }
            "option" => {
                for w in &words[1..] {
                    let (k, v) = w
                        .split_once('=')
                        .ok_or_else(|| err(format!("expected key=value, got {w:?}")))?;
                    set_option(&mut opts, k, v).map_err(err)?;
                }
            }
            "param" => {
                for w in &words[1..] {
                    let (k, v) = w
                        .split_once('=')
                        .ok_or_else(|| err(format!("expected name=number, got {w:?}")))?;
                    let x = v
                        .parse()
                        .map_err(|_| err(format!("param {k}: expected a number, got {v:?}")))?;
                    opts.params.insert(k.to_string(), x);
                }
            }
            "expect" => {
                if !lines.iter().any(|l| matches!(l.step, Step::Event { .. })) {
                    return Err(err("`expect` before any event".into()));
                }
                let e = parse_expects(&words[1..]).map_err(err)?;
                lines.push(Line {
                    no,
                    text: code.to_string(),
                    step: Step::Expect(e),
                });
            }
            t => {
                if !have_variant {
                    return Err(err("expected `variant NAME` before the first event".into()));
                }
                let (rel, tt) = match t.strip_prefix('+') {
                    Some(r) => (true, r),
                    None => (false, t),
                };
                let d = parse_duration(tt).ok_or_else(|| {
                    err(format!(
                        "expected a time like 100ms, 10.5ms, 1s or +5ms, or one of \
                         variant/option/param/expect; got {t:?}"
                    ))
                })?;
                let at = if rel {
                    last_time.ok_or_else(|| err("a relative time needs an earlier event".into()))?
                        + d
                } else {
                    d
                };
                if last_time.is_some_and(|l| at < l) {
                    return Err(err(format!(
                        "time goes backwards: {} after {}",
                        show_time(at),
                        show_time(last_time.unwrap())
                    )));
                }
                last_time = Some(at);
                let (ev, out) = match code.split_once("->") {
                    Some((e, o)) => (e, Some(o)),
                    None => (code, None),
                };
                let ew: Vec<&str> = ev.split_whitespace().skip(1).collect();
                let event = match ew.first().copied() {
                    Some("start") if ew.len() == 1 => Event::Start,
                    Some("timer") if ew.len() == 1 => Event::Timer,
                    Some("wakeup") if ew.len() == 1 => Event::Wakeup,
                    Some("ack") => parse_ack(&ew[1..]).map_err(err)?,
                    _ => {
                        return Err(err(
                            "expected an event: `start`, `ack N ...`, `timer` or `wakeup`".into(),
                        ))
                    }
                };
                let output = match out {
                    Some(o) => parse_output(o).map_err(err)?,
                    // No `->`: nothing may be sent.
                    None => Some(Vec::new()),
                };
                lines.push(Line {
                    no,
                    text: code.to_string(),
                    step: Step::Event { at, event, output },
                });
            }
        }
    }
    if !have_variant {
        return Err(ParseError {
            file: name.to_string(),
            line: 1,
            text: String::new(),
            msg: "no `variant` line".into(),
        });
    }
    Ok(Script {
        name: name.to_string(),
        opts,
        lines,
    })
}

// ---------------------------------------------------------------------------
// Runner
// ---------------------------------------------------------------------------

fn show_time(t: Time) -> String {
    let ms = t.as_millis_f64();
    let s = format!("{ms:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}ms")
}

fn show_num(x: f64) -> String {
    if x.is_infinite() {
        return "inf".into();
    }
    let s = format!("{x:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn show_value(v: &Value) -> String {
    match v {
        Value::Num(x) => show_num(*x),
        Value::Bool(b) => b.to_string(),
        Value::Time(None) => "none".into(),
        Value::Time(Some(t)) => show_time(*t),
    }
}

/// Renders sent segments as a script would write them: runs of the same kind
/// with consecutive numbers collapse to ranges.
fn show_sent(v: &[Sent]) -> String {
    if v.is_empty() {
        return "none".into();
    }
    // Runs of one kind, each a list of inclusive segment ranges.
    type Run = (Option<TxKind>, Vec<(u64, u64)>);
    let mut items: Vec<Run> = Vec::new();
    for s in v {
        match items.last_mut() {
            Some((k, rs)) if *k == s.kind => match rs.last_mut() {
                Some((_, b)) if *b + 1 == s.seg => *b = s.seg,
                _ => rs.push((s.seg, s.seg)),
            },
            _ => items.push((s.kind, vec![(s.seg, s.seg)])),
        }
    }
    items
        .iter()
        .map(|(k, rs)| {
            let r: Vec<String> = rs
                .iter()
                .map(|&(a, b)| {
                    if a == b {
                        a.to_string()
                    } else {
                        format!("{a}-{b}")
                    }
                })
                .collect();
            format!("{} {}", kind_word(*k), r.join(" "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A failed line: file:line, its text, expected and actual.
#[derive(Debug)]
pub struct Failure {
    pub file: String,
    pub line: usize,
    pub text: String,
    pub expected: String,
    pub actual: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}\n    expected: {}\n    actual:   {}",
            self.file, self.line, self.text, self.expected, self.actual
        )
    }
}

fn segments_of(out: &[DataSegment], mss: u32) -> Vec<Sent> {
    out.iter()
        .map(|d| Sent {
            kind: Some(d.kind),
            seg: d.seq / mss as u64,
        })
        .collect()
}

/// Runs a script; stops at the first failing line (later lines would
/// mostly fail in its wake).
pub fn run(script: &Script) -> Result<(), Failure> {
    let fail = |l: &Line, expected: String, actual: String| Failure {
        file: script.name.clone(),
        line: l.no,
        text: l.text.clone(),
        expected,
        actual,
    };
    let mut s = match build(&script.opts) {
        Ok(s) => s,
        Err(e) => {
            return Err(Failure {
                file: script.name.clone(),
                line: 1,
                text: format!("variant {}", script.opts.variant),
                expected: "a sender built from the script's options".into(),
                actual: e,
            })
        }
    };
    let mss = script.opts.mss as u64;
    let mut started = false;
    for l in &script.lines {
        match &l.step {
            Step::Event { at, event, output } => {
                let now = *at;
                let mut out = Vec::new();
                match event {
                    Event::Start => {
                        if started {
                            return Err(fail(l, "one start".into(), "a second start".into()));
                        }
                        started = true;
                        s.start(now, &mut out);
                    }
                    _ if !started => {
                        return Err(fail(l, "`start` first".into(), "no start yet".into()))
                    }
                    Event::Ack {
                        cum,
                        sacks,
                        dsack,
                        ecr,
                        rwnd,
                    } => {
                        let mut a = AckSegment {
                            ack: cum * mss,
                            rwnd: rwnd.map_or(u64::MAX, |w| w * mss),
                            ts_ecr: *ecr,
                            ts_val: ecr.map(|_| now),
                            ..Default::default()
                        };
                        let block = |&(x, y): &(u64, u64)| SackBlock {
                            start: x * mss,
                            end: (y + 1) * mss,
                        };
                        if let Some(d) = dsack {
                            a.dsack = true;
                            a.push_sack(block(d));
                        }
                        for b in sacks {
                            if !a.push_sack(block(b)) {
                                return Err(fail(
                                    l,
                                    "at most 4 SACK blocks (3 with timestamps)".into(),
                                    format!("{} blocks", sacks.len() + dsack.is_some() as usize),
                                ));
                            }
                        }
                        s.on_ack(now, &a, &mut out);
                    }
                    Event::Timer => s.on_timer(now, &mut out),
                    Event::Wakeup => {
                        let w = s.next_wakeup();
                        if w != Some(now) {
                            return Err(fail(
                                l,
                                format!("next_wakeup() = {}", show_time(now)),
                                format!("next_wakeup() = {}", show_value(&Value::Time(w))),
                            ));
                        }
                        s.on_timer(now, &mut out);
                    }
                }
                if let Some(want) = output {
                    let got = segments_of(&out, script.opts.mss);
                    let ok =
                        got.len() == want.len() && want.iter().zip(&got).all(|(w, g)| w.admits(g));
                    if !ok {
                        return Err(fail(l, show_sent(want), show_sent(&got)));
                    }
                }
            }
            Step::Expect(es) => {
                let mut exp = Vec::new();
                let mut act = Vec::new();
                let mut bad = false;
                for e in es {
                    let got = probe(&s, &e.key);
                    let ok = e.want.iter().any(|&(w, tol)| match (got, w) {
                        (Some(Value::Num(g)), Value::Num(w)) => g == w || (g - w).abs() <= tol,
                        (Some(Value::Time(Some(g))), Value::Time(Some(w))) => {
                            (g.0 as f64 - w.0 as f64).abs() <= tol
                        }
                        (Some(g), w) => g == w,
                        (None, _) => false,
                    });
                    let shown = got.map_or("(not available for this sender)".into(), |g| {
                        format!("{}={}", e.key, show_value(&g))
                    });
                    if !ok {
                        bad = true;
                        exp.push(e.text.clone());
                        act.push(shown);
                    }
                }
                if bad {
                    return Err(fail(l, exp.join(" "), act.join(" ")));
                }
            }
        }
    }
    Ok(())
}

/// The `*.trace` files in `dir` (not its subfolders), sorted by name. An
/// empty folder does not survive a git clone: a missing one holds none.
fn trace_files(dir: &Path) -> Vec<std::path::PathBuf> {
    if !dir.exists() {
        return Vec::new();
    }
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trace"))
        .collect();
    files.sort();
    files
}

/// Parses and runs every `*.trace` file in `dir` (not its subfolders), sorted
/// by name; returns (name, outcome) pairs.
pub fn run_dir(dir: &Path) -> Vec<(String, Result<(), String>)> {
    trace_files(dir)
        .iter()
        .map(|p| {
            let name = p
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(p)
                .display()
                .to_string();
            let src = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{name}: {e}"));
            let r = match parse(&name, &src) {
                Err(e) => Err(e.to_string()),
                Ok(sc) => run(&sc).map_err(|f| f.to_string()),
            };
            (name, r)
        })
        .collect()
}

/// Parses every `*.trace` file in `dir` without running it.
pub fn parse_dir(dir: &Path) -> Vec<(String, String, Result<Script, ParseError>)> {
    trace_files(dir)
        .iter()
        .map(|p| {
            let name = p.display().to_string();
            let src = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{name}: {e}"));
            let r = parse(&name, &src);
            (name, src, r)
        })
        .collect()
}
