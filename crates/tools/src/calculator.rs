//! `calculator`: safe arithmetic. A small recursive-descent parser over `f64` with limits
//! on length, nesting and magnitude — no code is ever executed.

use deskmate_core::{JsonSchema, Localized, ToolError, ToolSpec, schema_for};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::numfmt::format_number;
use crate::read_only::ReadOnly;
use crate::self_check::known_answer;
use crate::{Example, FnTool, SelfCheck, Teaches};

/// Longest expression accepted, in characters.
const MAX_LEN: usize = 2_000;
/// Deepest nesting of parentheses, function calls, unary signs and powers.
const MAX_DEPTH: usize = 64;
/// Longest number literal, in characters.
const MAX_LITERAL: usize = 40;

const FUNCTIONS: [&str; 14] = [
    "sqrt", "abs", "round", "floor", "ceil", "min", "max", "ln", "log10", "sin", "cos", "tan",
    "exp", "log2",
];

/// How a person asks for sums, for the model: a value the request states (as an
/// expression the parser reads), and one call per sum when several are asked.
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::StatedValue,
        request: "I need 3% of 1,250",
        parts: &[],
        calls: &[("calculator", r#"{"expression":"3% of 1250"}"#)],
    },
    Example {
        teaches: Teaches::OneToolTwice,
        request: "what are 12*7 and 2^10?",
        parts: &["12*7", "2^10"],
        calls: &[
            ("calculator", r#"{"expression":"12*7"}"#),
            ("calculator", r#"{"expression":"2^10"}"#),
        ],
    },
    Example {
        teaches: Teaches::Wording,
        request: "figure out 15 percent of 80 for me",
        parts: &[],
        calls: &[("calculator", r#"{"expression":"15% of 80"}"#)],
    },
    Example {
        teaches: Teaches::Wording,
        request: "45 乘以 12 得几",
        parts: &[],
        calls: &[("calculator", r#"{"expression":"45*12"}"#)],
    },
];

/// The calculator tool: quick and pure, it runs inline.
pub fn tool() -> FnTool {
    FnTool::inline(spec(), calculate)
        .with_examples(EXAMPLES)
        .with_self_check(|| SelfCheck::Sample {
            args: json!({"expression": "2+3*4"}),
            judge: |data| {
                let got = &data["result"];
                known_answer("14", got, got.as_f64() == Some(14.0))
            },
        })
}

fn spec() -> ToolSpec {
    ReadOnly {
        id: "calculator",
        name: Localized::new("计算器", "Calculator"),
        summary: Localized::new(
            "精确计算算术表达式，例如 2,340 的 17%。",
            "Works out an arithmetic expression exactly, such as 17% of 2,340.",
        ),
        description:
            "Evaluates an arithmetic expression exactly as written and returns the number. \
            Use it for any arithmetic instead of computing in your head. Supports + - * / ^ (power), \
            % (modulo between numbers; a percent sign after a number means /100, so '17% * 2340' or \
            '17% of 2340'), parentheses, unary minus, the functions sqrt abs round(x[, digits]) floor \
            ceil min max ln log10 log2 exp sin cos tan (radians) and the constants pi and e. \
            Read-only; runs no code.",
        timeout_ms: 1_000,
    }
    .spec(schema_for::<Args>())
}

/// The calculator's arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Args {
    #[schemars(
        length(min = 1, max = MAX_LEN),
        description = "The arithmetic expression, e.g. '2 + 3 * 4', 'sqrt(2) ^ 2', '17% of 2340'.",
        extend("x-description-zh" = "算术表达式，例如 '2 + 3 * 4'、'sqrt(2) ^ 2'、'17% of 2340'。")
    )]
    expression: String,
}

fn calculate(Args { expression }: Args) -> Result<Value, ToolError> {
    let value = evaluate(&expression)?;
    let text = format_number(value);
    // The sum as written, then its value: the same in both languages.
    let line = Localized::same(format!("{expression} = {text}"));
    let data = json!({
        "expression": expression,
        "result": crate::numfmt::json_number(value),
        "text": text,
    });
    Ok(crate::said::with_line(data, line))
}

/// Evaluates an expression.
pub fn evaluate(expression: &str) -> Result<f64, ToolError> {
    if expression.chars().count() > MAX_LEN {
        return Err(invalid(format!(
            "the expression is longer than {MAX_LEN} characters"
        ))
        .with_hint("split the calculation into smaller steps"));
    }
    let tokens = tokenize(expression)?;
    if tokens.is_empty() {
        return Err(
            invalid("the expression is empty").with_hint("send an expression such as '2 + 3 * 4'")
        );
    }
    let mut parser = Parser {
        tokens,
        pos: 0,
        depth: 0,
        args_depth: 0,
    };
    let value = parser.expression()?;
    if let Some(token) = parser.tokens.get(parser.pos) {
        return Err(invalid(format!("unexpected {} after a complete expression", token.describe()))
            .with_hint("check for a missing operator between two values, e.g. write '2 * (3 + 1)' not '2 (3 + 1)'"));
    }
    finite(value)
}

fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::validation(message)
}

fn finite(value: f64) -> Result<f64, ToolError> {
    if value.is_finite() {
        // Normalize -0 to 0 so results read naturally.
        Ok(if value == 0.0 { 0.0 } else { value })
    } else if value.is_nan() {
        Err(
            invalid("the result is not a number (e.g. sqrt of a negative number, or ln of 0)")
                .with_hint("check the function's domain"),
        )
    } else {
        Err(invalid("the result overflows (too large to represent)")
            .with_hint("use smaller numbers or exponents; results must stay below about 1.8e308"))
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64, String),
    Ident(String),
    Op(char),
    LParen,
    RParen,
    Comma,
}

impl Token {
    fn describe(&self) -> String {
        match self {
            Self::Number(_, text) => format!("number '{text}'"),
            Self::Ident(name) => format!("name '{name}'"),
            Self::Op(c) => format!("operator '{c}'"),
            Self::LParen => "'('".into(),
            Self::RParen => "')'".into(),
            Self::Comma => "','".into(),
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<Token>, ToolError> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            c if c.is_whitespace() => i += 1,
            '0'..='9' | '.' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_ascii_digit() || chars[i] == '.' || chars[i] == '_')
                {
                    i += 1;
                }
                // Scientific notation: 1e5, 2.5E-3.
                if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
                    let mut j = i + 1;
                    if j < chars.len() && (chars[j] == '+' || chars[j] == '-') {
                        j += 1;
                    }
                    if j < chars.len() && chars[j].is_ascii_digit() {
                        while j < chars.len() && chars[j].is_ascii_digit() {
                            j += 1;
                        }
                        i = j;
                    }
                }
                let literal: String = chars[start..i].iter().collect();
                if literal.len() > MAX_LITERAL {
                    return Err(invalid(format!(
                        "the number starting '{}…' has more than {MAX_LITERAL} characters",
                        &literal[..10]
                    ))
                    .with_hint(
                        "write very large or small numbers in scientific notation, e.g. 1.5e30",
                    ));
                }
                let value: f64 = literal
                    .replace('_', "")
                    .parse()
                    .map_err(|_| invalid(format!("'{literal}' is not a number")))?;
                if !value.is_finite() {
                    return Err(invalid(format!("the number '{literal}' is too large")));
                }
                tokens.push(Token::Number(value, literal));
            }
            c if c.is_alphabetic() || c == '_' || c == 'π' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect::<String>().to_lowercase();
                tokens.push(Token::Ident(if word == "π" { "pi".into() } else { word }));
            }
            '+' | '-' | '−' | '–' => {
                tokens.push(Token::Op(if c == '+' { '+' } else { '-' }));
                i += 1;
            }
            '*' | '×' | '·' => {
                if c == '*' && chars.get(i + 1) == Some(&'*') {
                    tokens.push(Token::Op('^'));
                    i += 2;
                } else {
                    tokens.push(Token::Op('*'));
                    i += 1;
                }
            }
            '/' | '÷' => {
                tokens.push(Token::Op('/'));
                i += 1;
            }
            '^' | '%' => {
                tokens.push(Token::Op(c));
                i += 1;
            }
            '(' | '（' => {
                tokens.push(Token::LParen);
                i += 1;
            }
            ')' | '）' => {
                tokens.push(Token::RParen);
                i += 1;
            }
            ',' | '，' => {
                tokens.push(Token::Comma);
                i += 1;
            }
            other => {
                return Err(invalid(format!("unsupported character '{other}'")).with_hint(
                    "use digits, + - * / ^ %, parentheses, commas between function arguments, and the listed functions",
                ));
            }
        }
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    /// How many function-argument lists are open (a comma then separates arguments).
    args_depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn next(&mut self) -> Option<Token> {
        let token = self.tokens.get(self.pos).cloned();
        self.pos += 1;
        token
    }

    fn enter(&mut self) -> Result<(), ToolError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(invalid(format!(
                "the expression nests deeper than {MAX_DEPTH} levels"
            ))
            .with_hint("remove redundant parentheses or split the calculation into steps"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// expression := term (('+' | '-') term)*
    fn expression(&mut self) -> Result<f64, ToolError> {
        self.enter()?;
        let mut value = self.term()?;
        while let Some(Token::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.term()?;
            value = finite(if op == '+' { value + rhs } else { value - rhs })?;
        }
        self.leave();
        Ok(value)
    }

    /// term := unary (('*' | '/' | '%' | 'of') unary)*
    fn term(&mut self) -> Result<f64, ToolError> {
        let mut value = self.unary()?;
        loop {
            match self.peek().cloned() {
                Some(Token::Op('*')) => {
                    self.pos += 1;
                    value = finite(value * self.unary()?)?;
                }
                Some(Token::Ident(word)) if word == "of" || word == "x" => {
                    self.pos += 1;
                    value = finite(value * self.unary()?)?;
                }
                Some(Token::Op('/')) => {
                    self.pos += 1;
                    let rhs = self.unary()?;
                    if rhs == 0.0 {
                        return Err(division_by_zero());
                    }
                    value = finite(value / rhs)?;
                }
                Some(Token::Op('%')) if self.percent_is_modulo() => {
                    self.pos += 1;
                    let rhs = self.unary()?;
                    if rhs == 0.0 {
                        return Err(division_by_zero());
                    }
                    value = finite(value % rhs)?;
                }
                _ => return Ok(value),
            }
        }
    }

    /// A `%` followed by an operand is modulo; otherwise it is a percent sign.
    fn percent_is_modulo(&self) -> bool {
        matches!(
            self.tokens.get(self.pos + 1),
            Some(Token::Number(..) | Token::LParen | Token::Ident(_) | Token::Op('-' | '+'))
        ) && !matches!(self.tokens.get(self.pos + 1), Some(Token::Ident(w)) if w == "of")
    }

    /// unary := ('-' | '+') unary | power
    fn unary(&mut self) -> Result<f64, ToolError> {
        match self.peek() {
            Some(Token::Op('-')) => {
                self.pos += 1;
                self.enter()?;
                let value = -self.unary()?;
                self.leave();
                Ok(value)
            }
            Some(Token::Op('+')) => {
                self.pos += 1;
                self.enter()?;
                let value = self.unary()?;
                self.leave();
                Ok(value)
            }
            _ => self.power(),
        }
    }

    /// power := postfix ('^' unary)?   (right-associative; -2^2 = -4)
    fn power(&mut self) -> Result<f64, ToolError> {
        let base = self.postfix()?;
        if let Some(Token::Op('^')) = self.peek() {
            self.pos += 1;
            self.enter()?;
            let exponent = self.unary()?;
            self.leave();
            return finite(base.powf(exponent));
        }
        Ok(base)
    }

    /// postfix := primary '%'*   (a percent sign not followed by an operand)
    fn postfix(&mut self) -> Result<f64, ToolError> {
        let mut value = self.primary()?;
        while let Some(Token::Op('%')) = self.peek() {
            if self.percent_is_modulo() {
                break;
            }
            self.pos += 1;
            value /= 100.0;
        }
        Ok(value)
    }

    fn primary(&mut self) -> Result<f64, ToolError> {
        match self.next() {
            Some(Token::Number(value, _)) => Ok(self.thousands(value)),
            Some(Token::LParen) => {
                let saved = self.args_depth;
                self.args_depth = 0;
                let value = self.expression()?;
                self.args_depth = saved;
                self.expect_rparen()?;
                Ok(value)
            }
            Some(Token::Ident(name)) => self.identifier(&name),
            Some(token) => Err(invalid(format!(
                "expected a number, '(' or a function, found {}",
                token.describe()
            ))
            .with_hint("check for two operators in a row or a missing operand")),
            None => Err(invalid("the expression ends where a value is expected")
                .with_hint("complete the expression, e.g. '2 + 3' not '2 +'")),
        }
    }

    /// `2,340` outside a function's argument list is a thousands separator.
    fn thousands(&mut self, mut value: f64) -> f64 {
        if self.args_depth > 0 {
            return value;
        }
        while let (Some(Token::Comma), Some(Token::Number(group, text))) =
            (self.tokens.get(self.pos), self.tokens.get(self.pos + 1))
        {
            if text.len() != 3 || !text.chars().all(|c| c.is_ascii_digit()) || value.fract() != 0.0
            {
                break;
            }
            value = value * 1000.0 + group;
            self.pos += 2;
        }
        value
    }

    fn expect_rparen(&mut self) -> Result<(), ToolError> {
        match self.next() {
            Some(Token::RParen) => Ok(()),
            Some(token) => Err(invalid(format!("expected ')', found {}", token.describe()))),
            None => Err(invalid("a '(' is never closed").with_hint("add the missing ')'")),
        }
    }

    fn identifier(&mut self, name: &str) -> Result<f64, ToolError> {
        match name {
            "pi" => return Ok(std::f64::consts::PI),
            "e" => return Ok(std::f64::consts::E),
            _ => {}
        }
        if !FUNCTIONS.contains(&name) {
            let options = deskmate_core::resolve::closest(
                name,
                FUNCTIONS.iter().copied().chain(["pi", "e"]),
                5,
            );
            return Err(invalid(format!("unknown function or constant '{name}'"))
                .with_hint(
                    "use one of the listed functions or constants; variables are not supported",
                )
                .with_options(options));
        }
        if self.peek() != Some(&Token::LParen) {
            return Err(invalid(format!(
                "the function '{name}' needs parentheses, e.g. {name}(2)"
            )));
        }
        self.pos += 1;
        self.enter()?;
        self.args_depth += 1;
        let mut args = Vec::new();
        if self.peek() != Some(&Token::RParen) {
            loop {
                args.push(self.expression()?);
                if self.peek() == Some(&Token::Comma) {
                    self.pos += 1;
                } else {
                    break;
                }
            }
        }
        self.args_depth -= 1;
        self.expect_rparen()?;
        self.leave();
        apply(name, &args)
    }
}

fn division_by_zero() -> ToolError {
    invalid("division by zero").with_hint("the divisor evaluates to 0; check the expression")
}

fn apply(name: &str, args: &[f64]) -> Result<f64, ToolError> {
    let arity = |want: &str, ok: bool| {
        if ok {
            Ok(())
        } else {
            Err(invalid(format!(
                "{name}() takes {want}, got {}",
                args.len()
            )))
        }
    };
    let domain = |ok: bool, what: &str| {
        if ok {
            Ok(())
        } else {
            Err(invalid(format!("{name}() is undefined for {what}")))
        }
    };
    let value = match name {
        "min" | "max" => {
            arity("at least one argument", !args.is_empty())?;
            let fold = if name == "min" { f64::min } else { f64::max };
            args.iter().copied().reduce(fold).unwrap_or(f64::NAN)
        }
        "round" => {
            arity("one or two arguments", matches!(args.len(), 1 | 2))?;
            let digits = args.get(1).copied().unwrap_or(0.0);
            if digits.fract() != 0.0 || !(0.0..=15.0).contains(&digits) {
                return Err(invalid(
                    "round()'s digits must be a whole number from 0 to 15",
                ));
            }
            crate::numfmt::round_half_away(args[0], digits as u32)
                .ok_or_else(|| invalid("round() got a number too large to round"))?
        }
        _ => {
            arity("one argument", args.len() == 1)?;
            let x = args[0];
            match name {
                "sqrt" => {
                    domain(x >= 0.0, "negative numbers")?;
                    x.sqrt()
                }
                "abs" => x.abs(),
                "floor" => x.floor(),
                "ceil" => x.ceil(),
                "ln" | "log10" | "log2" => {
                    domain(x > 0.0, "zero or negative numbers")?;
                    match name {
                        "ln" => x.ln(),
                        "log10" => x.log10(),
                        _ => x.log2(),
                    }
                }
                "exp" => x.exp(),
                "sin" => x.sin(),
                "cos" => x.cos(),
                "tan" => {
                    domain(
                        (x / std::f64::consts::PI - 0.5).fract().abs() > 1e-12,
                        "odd multiples of pi/2",
                    )?;
                    x.tan()
                }
                _ => {
                    return Err(ToolError::internal(format!(
                        "function '{name}' has no implementation"
                    )));
                }
            }
        }
    };
    finite(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use deskmate_core::ErrorType;

    fn eval(text: &str) -> Option<f64> {
        evaluate(text).ok()
    }

    #[test]
    fn a_result_says_the_sum_and_its_value() {
        let data = calculate(Args {
            expression: "17% of 2,340".into(),
        })
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            crate::said::line(&data, false),
            Some("17% of 2,340 = 397.8")
        );
        assert_eq!(crate::said::line(&data, true), Some("17% of 2,340 = 397.8"));
        let data = calculate(Args {
            expression: "12*7".into(),
        })
        .unwrap_or_default();
        assert_eq!(crate::said::line(&data, false), Some("12*7 = 84"));
    }

    #[test]
    fn arithmetic_table() {
        let cases: &[(&str, f64)] = &[
            ("2 + 3 * 4", 14.0),
            ("(2 + 3) * 4", 20.0),
            ("2 ^ 3 ^ 2", 512.0),
            ("2 ** 10", 1024.0),
            ("-2 ^ 2", -4.0),
            ("(-2) ^ 2", 4.0),
            ("--3", 3.0),
            ("10 % 3", 1.0),
            ("-7 % 3", -1.0),
            ("17% * 2340", 397.8),
            ("17% of 2,340", 397.8),
            ("2,340 * 2", 4680.0),
            ("1,000,000 / 4", 250_000.0),
            ("max(2,340)", 340.0),
            ("50%", 0.5),
            ("7 × 6 ÷ 3 − 1", 13.0),
            ("sqrt(16) + abs(-2)", 6.0),
            ("round(2.5)", 3.0),
            ("round(-2.5)", -3.0),
            ("round(1.005, 2)", 1.01),
            ("floor(-1.5) + ceil(1.2)", 0.0),
            ("min(3, 1, 2) + max(1, 5)", 6.0),
            ("ln(e) + log10(1000)", 4.0),
            ("cos(0) + sin(0)", 1.0),
            ("3 x 4", 12.0),
        ];
        for (text, want) in cases {
            let got = eval(text);
            assert!(
                got.is_some_and(|g| (g - want).abs() < 1e-9),
                "{text}: got {got:?}, want {want}"
            );
        }
        assert!((eval("π * 1").unwrap_or_default() - std::f64::consts::PI).abs() < 1e-15);
        assert!((eval("tan(pi / 4)").unwrap_or_default() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn errors_are_validation_with_hints() {
        for text in [
            "1 / 0",
            "5 % 0",
            "1 / (2 - 2)",
            "10 ^ 400",
            "2 ^ 2 ^ 2 ^ 2 ^ 2",
            "sqrt(-1)",
            "ln(0)",
            "2pi",
            "2 +",
            "(1 + 2",
            "1 + 2)",
            "import os",
            "__import__('os')",
            "foo(1)",
            "sqrt 4",
            "",
            "1e999",
            "round(1.5, -1)",
            "min()",
            "3 $ 4",
        ] {
            let err = evaluate(text).err();
            assert_eq!(
                err.as_ref().map(|e| e.error_type),
                Some(ErrorType::Validation),
                "{text}: {err:?}"
            );
        }
        let err = evaluate("sqroot(4)")
            .err()
            .map(|e| e.options)
            .unwrap_or_default();
        assert_eq!(err.first().map(String::as_str), Some("sqrt"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 3000, ..Default::default() })]

        #[test]
        fn never_panics_on_any_text(text in ".{0,120}") {
            let _ = evaluate(&text);
        }

        #[test]
        fn never_panics_on_operator_soup(text in "[0-9.,%^*/+()eπ -]{0,200}|(sqrt|min|round|ln|of|x|pi)[(0-9,.)^%*]{0,60}") {
            if let Ok(value) = evaluate(&text) {
                proptest::prop_assert!(value.is_finite());
            }
        }
    }

    #[test]
    fn hostile_sizes_fail_fast_without_overflowing_the_stack() {
        let start = std::time::Instant::now();
        let digits = "9".repeat(10_000);
        assert!(evaluate(&format!("2 ^ {digits}")).is_err());
        assert!(evaluate(&format!("2 ^ {}", "9".repeat(39))).is_err());
        assert!(evaluate(&format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000))).is_err());
        assert!(evaluate(&format!("{}1{}", "(".repeat(600), ")".repeat(600))).is_err());
        assert!(evaluate(&"-".repeat(1_000)).is_err());
        assert!(evaluate(&format!("2{}", "^2".repeat(900))).is_err());
        assert!(evaluate(&format!("{}1{}", "sqrt(".repeat(300), ")".repeat(300))).is_err());
        // Generous bound: this is a hang detector, not a speed test.
        assert!(start.elapsed().as_secs() < 5);
        // Nesting within the limit still works.
        assert_eq!(
            eval(&format!("{}1{}", "(".repeat(30), ")".repeat(30))),
            Some(1.0)
        );
    }
}
