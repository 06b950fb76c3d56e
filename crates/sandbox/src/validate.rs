//! Request validation with FastAPI/pydantic-shaped 422 bodies: every problem is reported at
//! once, each naming `type`, `loc`, `msg`, `input` and, where pydantic gives one, `ctx`.

use serde_json::{json, Map, Value};

mod lax_int;
pub use lax_int::LaxInt;

/// Longest search query the sandbox reads (`query` of the X and web searches), in characters:
/// X's own limit for a search. Matching cost grows with every term, so the limit bounds the
/// work one request can ask for.
pub const MAX_QUERY_CHARS: usize = 512;
/// Longest AI prompt or system message, in characters.
pub const MAX_PROMPT_CHARS: usize = 4_096;

#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    pub kind: &'static str,
    pub loc: Vec<Value>,
    pub msg: String,
    pub input: Value,
    pub ctx: Option<Value>,
}

impl FieldError {
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), Value::from(self.kind));
        m.insert("loc".into(), Value::Array(self.loc.clone()));
        m.insert("msg".into(), Value::from(self.msg.clone()));
        m.insert("input".into(), self.input.clone());
        if let Some(ctx) = &self.ctx {
            m.insert("ctx".into(), ctx.clone());
        }
        Value::Object(m)
    }
}

/// Collected problems of one request.
#[derive(Debug, Default)]
pub struct Problems(pub Vec<FieldError>);

impl Problems {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn body(&self) -> Value {
        json!({ "detail": self.0.iter().map(FieldError::to_json).collect::<Vec<_>>() })
    }

    pub fn push(
        &mut self,
        kind: &'static str,
        loc: Vec<Value>,
        msg: impl Into<String>,
        input: Value,
        ctx: Option<Value>,
    ) {
        self.0.push(FieldError {
            kind,
            loc,
            msg: msg.into(),
            input,
            ctx,
        });
    }

    /// pydantic's `max_length` rule on a string.
    fn too_long(&mut self, loc: Vec<Value>, value: &str, max: usize) {
        if value.chars().count() > max {
            self.push(
                "string_too_long",
                loc,
                format!("String should have at most {max} characters"),
                Value::from(value),
                Some(json!({ "max_length": max })),
            );
        }
    }

    fn missing(&mut self, loc: Vec<Value>) {
        self.push("missing", loc, "Field required", Value::Null, None);
    }

    fn int_range(&mut self, loc: Vec<Value>, n: i64, input: Value, min: i64, max: i64) -> bool {
        if n < min {
            self.push(
                "greater_than_equal",
                loc,
                format!("Input should be greater than or equal to {min}"),
                input,
                Some(json!({ "ge": min })),
            );
            false
        } else if n > max {
            self.push(
                "less_than_equal",
                loc,
                format!("Input should be less than or equal to {max}"),
                input,
                Some(json!({ "le": max })),
            );
            false
        } else {
            true
        }
    }
}

/// pydantic's lax booleans.
fn parse_bool(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" | "t" | "y" => Some(true),
        "false" | "0" | "no" | "off" | "f" | "n" => Some(false),
        _ => None,
    }
}

/// Parsed query string; for repeated keys the last value wins, as in Starlette.
pub struct Query {
    pairs: Vec<(String, String)>,
    pub problems: Problems,
}

fn qloc(name: &str) -> Vec<Value> {
    vec![Value::from("query"), Value::from(name)]
}

impl Query {
    pub fn parse(raw: Option<&str>) -> Query {
        let pairs = form_urlencoded::parse(raw.unwrap_or("").as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        Query {
            pairs,
            problems: Problems::default(),
        }
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn all(&self, name: &str) -> Vec<String> {
        self.pairs
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .collect()
    }

    pub fn required_str(&mut self, name: &str) -> String {
        match self.get(name) {
            Some(v) => v.to_string(),
            None => {
                self.problems.missing(qloc(name));
                String::new()
            }
        }
    }

    pub fn required_list(&mut self, name: &str) -> Vec<String> {
        let v = self.all(name);
        if v.is_empty() {
            self.problems.missing(qloc(name));
        }
        v
    }

    pub fn opt_str(&self, name: &str) -> Option<String> {
        self.get(name).map(str::to_string)
    }

    /// Records `string_too_long` when `value`, read from `name`, has more than `max` characters.
    pub fn limit_chars(&mut self, name: &str, value: &str, max: usize) {
        self.problems.too_long(qloc(name), value, max);
    }

    /// pydantic's lax integer (`5.0`, ` 5 `, `1_000`); a problem recorded when it is not one.
    fn parse_int(&mut self, name: &str, raw: &str) -> Option<i64> {
        let (kind, msg) = match lax_int::parse(raw) {
            LaxInt::Int(n) | LaxInt::Huge(n) => return Some(n),
            LaxInt::Invalid => ("int_parsing", lax_int::PARSING_MSG),
            LaxInt::TooLong => ("int_parsing_size", lax_int::SIZE_MSG),
        };
        self.problems
            .push(kind, qloc(name), msg, Value::from(raw), None);
        None
    }

    /// An integer in `min..=max`, or `default` when absent.
    pub fn int_in(&mut self, name: &str, default: i64, min: i64, max: i64) -> i64 {
        let Some(raw) = self.get(name).map(str::to_string) else {
            return default;
        };
        match self.parse_int(name, &raw) {
            Some(n)
                if self
                    .problems
                    .int_range(qloc(name), n, Value::from(raw.as_str()), min, max) =>
            {
                n
            }
            _ => default,
        }
    }

    pub fn required_int(&mut self, name: &str) -> Option<i64> {
        match self.get(name).map(str::to_string) {
            Some(raw) => self.parse_int(name, &raw),
            None => {
                self.problems.missing(qloc(name));
                None
            }
        }
    }

    /// "integer or numeric string" parameters such as `min_likes`.
    pub fn opt_count(&mut self, name: &str) -> Option<u64> {
        let raw = self.get(name)?.to_string();
        let n = self.parse_int(name, &raw)?;
        Some(n.max(0) as u64)
    }

    pub fn opt_bool(&mut self, name: &str) -> Option<bool> {
        let raw = self.get(name)?.to_string();
        let parsed = parse_bool(&raw);
        if parsed.is_none() {
            self.problems.push(
                "bool_parsing",
                qloc(name),
                "Input should be a valid boolean, unable to interpret input",
                Value::from(raw),
                None,
            );
        }
        parsed
    }

    /// A value that must match `^(a|b|…)$`; returns `default` when absent.
    pub fn pattern(
        &mut self,
        name: &str,
        allowed: &[&'static str],
        default: &'static str,
    ) -> &'static str {
        let Some(raw) = self.get(name).map(str::to_string) else {
            return default;
        };
        if let Some(v) = allowed.iter().find(|a| **a == raw) {
            return v;
        }
        let pattern = format!("^({})$", allowed.join("|"));
        self.problems.push(
            "string_pattern_mismatch",
            qloc(name),
            format!("String should match pattern '{pattern}'"),
            Value::from(raw),
            Some(json!({ "pattern": pattern })),
        );
        default
    }

    /// An enum value; returns `default` when absent.
    pub fn enumeration(
        &mut self,
        name: &str,
        allowed: &[&'static str],
        default: &'static str,
    ) -> &'static str {
        let Some(raw) = self.get(name).map(str::to_string) else {
            return default;
        };
        if let Some(v) = allowed.iter().find(|a| **a == raw) {
            return v;
        }
        let expected = expected_list(allowed);
        self.problems.push(
            "enum",
            qloc(name),
            format!("Input should be {expected}"),
            Value::from(raw),
            Some(json!({ "expected": expected })),
        );
        default
    }

    /// A `YYYY-MM-DD` date, as milliseconds at the start of that day (UTC).
    pub fn opt_date(&mut self, name: &str) -> Option<i64> {
        let raw = self.get(name)?.to_string();
        match chrono::NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d") {
            Ok(d) => Some(
                d.and_hms_opt(0, 0, 0)
                    .expect("midnight")
                    .and_utc()
                    .timestamp_millis(),
            ),
            Err(_) => {
                self.problems.push(
                    "value_error",
                    qloc(name),
                    "Value error, date must be in YYYY-MM-DD format",
                    Value::from(raw),
                    Some(json!({ "error": "invalid date format" })),
                );
                None
            }
        }
    }
}

/// pydantic's rendering of enum choices: `'a', 'b' or 'c'`.
pub fn expected_list(allowed: &[&str]) -> String {
    let quoted: Vec<String> = allowed.iter().map(|a| format!("'{a}'")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

fn bloc(path: &[Value]) -> Vec<Value> {
    let mut loc = vec![Value::from("body")];
    loc.extend_from_slice(path);
    loc
}

/// A JSON request body being validated.
pub struct Body {
    map: Map<String, Value>,
    pub problems: Problems,
}

impl Body {
    /// Parses the raw body; when it is not a JSON object, the problem is recorded and an empty
    /// map is used so that the caller can still run (and report nothing more).
    pub fn parse(raw: &[u8]) -> Body {
        let mut problems = Problems::default();
        let text = String::from_utf8_lossy(raw);
        let map = if text.trim().is_empty() {
            problems.missing(vec![Value::from("body")]);
            None
        } else {
            match serde_json::from_slice::<Value>(raw) {
                Ok(Value::Object(m)) => Some(m),
                Ok(other) => {
                    problems.push(
                        "model_attributes_type",
                        vec![Value::from("body")],
                        "Input should be a valid dictionary or object to extract fields from",
                        other,
                        None,
                    );
                    None
                }
                Err(e) => {
                    let offset = byte_offset(&text, e.line(), e.column());
                    problems.push(
                        "json_invalid",
                        vec![Value::from("body"), Value::from(offset)],
                        "JSON decode error",
                        json!({}),
                        Some(json!({ "error": e.to_string() })),
                    );
                    None
                }
            }
        };
        Body {
            map: map.unwrap_or_default(),
            problems,
        }
    }

    /// True when the body itself could not be read as an object.
    pub fn unreadable(&self) -> bool {
        self.problems.0.iter().any(|p| {
            matches!(p.kind, "json_invalid" | "model_attributes_type")
                || (p.kind == "missing" && p.loc.len() == 1)
        })
    }

    fn field(&self, name: &str) -> Option<&Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    fn string_type(&mut self, path: &[Value], input: &Value) {
        self.problems.push(
            "string_type",
            bloc(path),
            "Input should be a valid string",
            input.clone(),
            None,
        );
    }

    pub fn required_str(&mut self, name: &str) -> String {
        match self.map.get(name) {
            None => {
                self.problems.missing(bloc(&[Value::from(name)]));
                String::new()
            }
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                let other = other.clone();
                self.string_type(&[Value::from(name)], &other);
                String::new()
            }
        }
    }

    pub fn opt_str(&mut self, name: &str) -> Option<String> {
        match self.field(name)?.clone() {
            Value::String(s) => Some(s),
            other => {
                self.string_type(&[Value::from(name)], &other);
                None
            }
        }
    }

    /// Records `string_too_long` when `value`, read from `name`, has more than `max` characters.
    pub fn limit_chars(&mut self, name: &str, value: &str, max: usize) {
        self.problems
            .too_long(bloc(&[Value::from(name)]), value, max);
    }

    /// A required array of strings.
    pub fn required_str_list(&mut self, name: &str) -> Vec<String> {
        match self.map.get(name).cloned() {
            None => {
                self.problems.missing(bloc(&[Value::from(name)]));
                Vec::new()
            }
            Some(Value::Array(items)) => {
                let mut out = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::String(s) => out.push(s.clone()),
                        other => self.string_type(&[Value::from(name), Value::from(i)], other),
                    }
                }
                out
            }
            Some(other) => {
                self.problems.push(
                    "list_type",
                    bloc(&[Value::from(name)]),
                    "Input should be a valid list",
                    other,
                    None,
                );
                Vec::new()
            }
        }
    }

    /// pydantic's lax integer: an integer, a whole float or a numeric string.
    pub fn int_in(&mut self, name: &str, default: i64, min: i64, max: i64) -> i64 {
        let Some(v) = self.field(name).cloned() else {
            return default;
        };
        let loc = bloc(&[Value::from(name)]);
        let n = match &v {
            Value::Number(n) => n
                .as_i64()
                .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
            Value::String(s) => match lax_int::parse(s) {
                LaxInt::Int(n) | LaxInt::Huge(n) => Some(n),
                LaxInt::Invalid | LaxInt::TooLong => None,
            },
            _ => None,
        };
        match n {
            Some(n) if self.problems.int_range(loc, n, v.clone(), min, max) => n,
            Some(_) => default,
            None => {
                let (kind, msg) = match &v {
                    Value::Number(_) => (
                        "int_from_float",
                        "Input should be a valid integer, got a number with a fractional part",
                    ),
                    Value::String(s) if lax_int::parse(s) == LaxInt::TooLong => {
                        ("int_parsing_size", lax_int::SIZE_MSG)
                    }
                    Value::String(_) => ("int_parsing", lax_int::PARSING_MSG),
                    _ => ("int_type", "Input should be a valid integer"),
                };
                self.problems
                    .push(kind, bloc(&[Value::from(name)]), msg, v, None);
                default
            }
        }
    }

    pub fn bool_or(&mut self, name: &str, default: bool) -> bool {
        let Some(v) = self.field(name).cloned() else {
            return default;
        };
        let parsed = match &v {
            Value::Bool(b) => Some(*b),
            Value::Number(n) => match n.as_i64() {
                Some(0) => Some(false),
                Some(1) => Some(true),
                _ => None,
            },
            Value::String(s) => parse_bool(s),
            _ => None,
        };
        parsed.unwrap_or_else(|| {
            let (kind, msg) = match v {
                Value::String(_) => (
                    "bool_parsing",
                    "Input should be a valid boolean, unable to interpret input",
                ),
                _ => ("bool_type", "Input should be a valid boolean"),
            };
            self.problems
                .push(kind, bloc(&[Value::from(name)]), msg, v, None);
            default
        })
    }

    pub fn enumeration(
        &mut self,
        name: &str,
        allowed: &[&'static str],
        default: &'static str,
    ) -> &'static str {
        let Some(v) = self.field(name).cloned() else {
            return default;
        };
        if let Some(found) = v.as_str().and_then(|s| allowed.iter().find(|a| **a == s)) {
            return found;
        }
        let expected = expected_list(allowed);
        self.problems.push(
            "enum",
            bloc(&[Value::from(name)]),
            format!("Input should be {expected}"),
            v,
            Some(json!({ "expected": expected })),
        );
        default
    }

    /// A `YYYY-MM-DDTHH:MM:SSZ` timestamp, as milliseconds.
    pub fn opt_timestamp(&mut self, name: &str) -> Option<i64> {
        let raw = self.opt_str(name)?;
        match chrono::NaiveDateTime::parse_from_str(raw.trim(), "%Y-%m-%dT%H:%M:%SZ") {
            Ok(t) => Some(t.and_utc().timestamp_millis()),
            Err(_) => {
                self.problems.push(
                    "value_error",
                    bloc(&[Value::from(name)]),
                    "Value error, date must be in YYYY-MM-DDTHH:MM:SSZ format",
                    Value::from(raw),
                    Some(json!({ "error": "invalid datetime format" })),
                );
                None
            }
        }
    }

    /// Records a rule specific to one field.
    pub fn reject(
        &mut self,
        path: &[Value],
        kind: &'static str,
        msg: impl Into<String>,
        input: Value,
        ctx: Option<Value>,
    ) {
        self.problems.push(kind, bloc(path), msg, input, ctx);
    }
}

/// Character offset of a (line, column) position, for `json_invalid` locations.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 == line {
            return offset + column.saturating_sub(1);
        }
        offset += l.chars().count() + 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_rules() {
        let mut q = Query::parse(Some("count=0&sort=Best&verified=maybe&min_likes=abc&x=1"));
        assert_eq!(q.int_in("count", 20, 1, 100), 20);
        q.pattern("sort", &["Top", "Latest"], "Top");
        q.opt_bool("verified");
        q.opt_count("min_likes");
        q.required_str("query");
        let kinds: Vec<&str> = q.problems.0.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [
                "greater_than_equal",
                "string_pattern_mismatch",
                "bool_parsing",
                "int_parsing",
                "missing"
            ]
        );
        let body = q.problems.body();
        assert_eq!(body["detail"][0]["loc"], json!(["query", "count"]));
        assert_eq!(body["detail"][0]["ctx"], json!({ "ge": 1 }));
        assert_eq!(
            body["detail"][1]["msg"],
            "String should match pattern '^(Top|Latest)$'"
        );
        assert_eq!(body["detail"][4]["input"], Value::Null);
    }

    #[test]
    fn repeated_keys_and_lax_values() {
        let mut q = Query::parse(Some("urls=a&urls=b&count=5&count=7&verified=TRUE"));
        assert_eq!(q.all("urls"), ["a", "b"]);
        assert_eq!(q.int_in("count", 10, 1, 100), 7);
        assert_eq!(q.opt_bool("verified"), Some(true));
        assert!(q.problems.is_empty());
    }

    #[test]
    fn body_rules() {
        let mut b = Body::parse(br#"{"prompt": 5, "tools": "web", "count": 500, "streaming": "perhaps", "date_filter": "YESTERDAY"}"#);
        b.required_str("prompt");
        b.required_str_list("tools");
        b.int_in("count", 10, 10, 200);
        b.bool_or("streaming", true);
        b.enumeration(
            "date_filter",
            &["PAST_24_HOURS", "PAST_WEEK"],
            "PAST_24_HOURS",
        );
        let kinds: Vec<&str> = b.problems.0.iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [
                "string_type",
                "list_type",
                "less_than_equal",
                "bool_parsing",
                "enum"
            ]
        );
        assert_eq!(
            b.problems.0[4].msg,
            "Input should be 'PAST_24_HOURS' or 'PAST_WEEK'"
        );

        let bad = Body::parse(b"{not json");
        assert!(bad.unreadable());
        assert_eq!(bad.problems.0[0].kind, "json_invalid");
        assert!(Body::parse(b"").unreadable());
        assert!(Body::parse(b"[1]").unreadable());
        assert!(!Body::parse(b"{}").unreadable());
    }
}
