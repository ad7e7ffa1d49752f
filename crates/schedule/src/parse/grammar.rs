//! Tokens to slots: which day, which time, which repetition, which duration. The grammar is
//! the same for both languages; word order is free where the slots cannot be confused
//! ("tomorrow at 9am", "9am tomorrow", "明天早上9点").

use chrono::Weekday;

use super::lexer::{Mer, Tok, Token, Unit, not_understood};
use super::zh::weekday_char;
use crate::error::{RuleError, RuleErrorKind};

/// A time of day as said (checked later, with the part of the day).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SaidTime {
    pub(crate) hour: u32,
    pub(crate) minute: u32,
    pub(crate) second: u32,
    /// noon, midnight: the part of the day does not apply.
    pub(crate) fixed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum DayRef {
    /// Today + n.
    Rel(u32),
    /// A date; the year may be left out (the next such date).
    Date {
        year: Option<i32>,
        month: u32,
        day: u32,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum WeekMode {
    /// "friday", "周五": the next such day and time.
    #[default]
    Bare,
    /// "next friday": the first such day after today.
    Next,
    /// "下周五": that day of next calendar week (Monday to Sunday).
    NextWeek,
    /// "this friday", "这周五": that day of this calendar week.
    This,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Slots {
    pub(crate) every: bool,
    /// The interval after "every": amount and unit.
    pub(crate) step: Option<(f64, Unit)>,
    pub(crate) step_text: String,
    /// A duration ("in 1 hour 30 minutes").
    pub(crate) durations: Vec<(f64, Unit)>,
    pub(crate) duration_text: String,
    pub(crate) dur_in: bool,
    pub(crate) dur_later: bool,
    pub(crate) day: Option<DayRef>,
    pub(crate) weekdays_list: Vec<Weekday>,
    pub(crate) week_mode: WeekMode,
    /// "mondays": repeating.
    pub(crate) plural: bool,
    pub(crate) weekdays: bool,
    pub(crate) weekend: bool,
    pub(crate) month_days: Vec<u32>,
    pub(crate) time: Option<SaidTime>,
    pub(crate) time_text: String,
    pub(crate) mer: Option<Mer>,
    pub(crate) offset: Option<i32>,
}

impl Slots {
    /// Whether anything names a day or a time of day.
    pub(crate) fn has_day_or_time(&self) -> bool {
        self.day.is_some()
            || !self.weekdays_list.is_empty()
            || self.weekdays
            || self.weekend
            || !self.month_days.is_empty()
            || self.time.is_some()
            || self.mer.is_some()
            || self.offset.is_some()
    }
}

struct Reader<'a> {
    toks: &'a [Token],
    i: usize,
    s: Slots,
    original: &'a str,
    zh: bool,
    /// Whether a bare number can be an hour ("tomorrow 9", "every day at 8").
    context: bool,
}

/// Reads the tokens into slots.
pub(crate) fn read(toks: &[Token], original: &str) -> Result<Slots, RuleError> {
    let context = toks.iter().any(|t| {
        matches!(
            t.tok,
            Tok::Day(_)
                | Tok::Weekday(_)
                | Tok::WeekdayPlural(_)
                | Tok::Weekdays
                | Tok::Weekend
                | Tok::IsoDate(..)
                | Tok::Mer(_)
                | Tok::Every
                | Tok::Daily
                | Tok::Weekly
                | Tok::Monthly
                | Tok::MonthName(_)
                | Tok::Ordinal(_)
                | Tok::DayMark
                | Tok::At
        )
    });
    let mut r = Reader {
        toks,
        i: 0,
        s: Slots::default(),
        original,
        zh: original.chars().any(super::lexer::is_cjk),
        context,
    };
    r.run()?;
    Ok(r.s)
}

impl Reader<'_> {
    fn peek(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.i + k).map(|t| &t.tok)
    }

    fn text(&self, from: usize, to: usize) -> String {
        let from = (self.i + from).min(self.toks.len());
        let to = (self.i + to).min(self.toks.len());
        let words: Vec<&str> = self.toks[from..to]
            .iter()
            .map(|t| t.text.as_str())
            .collect();
        words.join(if self.zh { "" } else { " " })
    }

    fn unexpected(&self) -> RuleError {
        not_understood(&self.text(0, 1), self.original)
    }

    fn conflict(&self, what: &str) -> RuleError {
        RuleError::with_forms(
            RuleErrorKind::NotUnderstood,
            format!("'{}' gives {what} twice", self.original),
        )
    }

    fn run(&mut self) -> Result<(), RuleError> {
        let mut at = false;
        let mut mode: Option<WeekMode> = None;
        while let Some(tok) = self.peek(0).cloned() {
            let after_at = std::mem::take(&mut at);
            if mode.is_some() && !matches!(tok, Tok::Weekday(_) | Tok::WeekdayPlural(_)) {
                return Err(RuleError::with_forms(
                    RuleErrorKind::NotUnderstood,
                    format!(
                        "'next', 'this', '下' and '这' need a weekday right after them in '{}' \
                         (e.g. 'next monday 8:15', '下周一8点')",
                        self.original
                    ),
                ));
            }
            match tok {
                Tok::Every => {
                    self.s.every = true;
                    self.i += 1;
                    self.step()?;
                }
                Tok::Daily => self.fixed_step(1.0, Unit::Day)?,
                Tok::Hourly => self.fixed_step(1.0, Unit::Hour)?,
                Tok::Weekly => self.fixed_step(1.0, Unit::Week)?,
                Tok::Monthly => self.fixed_step(1.0, Unit::Month)?,
                Tok::In => {
                    // "in the morning" is a part of the day, not a duration.
                    if !matches!(self.peek(1), Some(Tok::Mer(_))) {
                        self.s.dur_in = true;
                    }
                    self.i += 1;
                }
                Tok::After => {
                    self.s.dur_in = true;
                    self.i += 1;
                }
                Tok::Later => {
                    self.s.dur_later = true;
                    self.i += 1;
                }
                Tok::From if self.peek(1) == Some(&Tok::Now) => {
                    self.s.dur_later = true;
                    self.i += 2;
                }
                Tok::Num(_)
                | Tok::Dec(_)
                | Tok::Half
                | Tok::Article
                | Tok::Other
                | Tok::Quarter => self.number(after_at)?,
                Tok::Clock(h, m, s) => {
                    let text = self.text(0, 1);
                    self.i += 1;
                    self.set_time(h, m, s, false, text)?;
                    self.am_pm()?;
                }
                Tok::IsoDate(year, month, day) => {
                    self.set_day(DayRef::Date {
                        year: Some(year),
                        month,
                        day,
                    })?;
                    self.i += 1;
                }
                Tok::Offset(o) => {
                    self.s.offset = Some(o);
                    self.i += 1;
                }
                Tok::Mer(m) => {
                    self.set_mer(m)?;
                    self.i += 1;
                }
                Tok::NoonWord => {
                    let text = self.text(0, 1);
                    self.i += 1;
                    self.set_time(12, 0, 0, true, text)?;
                }
                Tok::Midnight => {
                    let text = self.text(0, 1);
                    self.i += 1;
                    self.set_time(24, 0, 0, true, text)?;
                }
                Tok::Day(n) => {
                    self.set_day(DayRef::Rel(n))?;
                    self.i += 1;
                }
                Tok::Weekday(_) | Tok::WeekdayPlural(_) => {
                    self.weekday_list(mode.take().unwrap_or_default())?;
                }
                Tok::Next => {
                    mode = Some(WeekMode::Next);
                    self.i += 1;
                }
                Tok::NextWeek => {
                    mode = Some(WeekMode::NextWeek);
                    self.i += 1;
                    // 下周一: the week word before the weekday.
                    if self.peek(0) == Some(&Tok::Unit(Unit::Week)) {
                        self.i += 1;
                    }
                }
                Tok::This => {
                    mode = Some(WeekMode::This);
                    self.i += 1;
                    if self.peek(0) == Some(&Tok::Unit(Unit::Week)) {
                        self.i += 1;
                    }
                }
                Tok::Weekdays => {
                    self.s.weekdays = true;
                    self.i += 1;
                }
                Tok::Weekend => {
                    self.s.weekend = true;
                    self.i += 1;
                }
                Tok::MonthName(month) => self.month_name(month)?,
                Tok::Ordinal(n) => {
                    if let Some(Tok::MonthName(month)) = self.peek(1).cloned() {
                        self.i += 2;
                        self.date_with_year(month, n)?;
                    } else {
                        self.month_day_list()?;
                    }
                }
                Tok::At => {
                    at = true;
                    self.i += 1;
                }
                Tok::And => self.i += 1,
                _ => return Err(self.unexpected()),
            }
        }
        if mode.is_some() {
            return Err(RuleError::with_forms(
                RuleErrorKind::NotUnderstood,
                format!(
                    "'next', 'this', '下' and '这' need a weekday after them in '{}'",
                    self.original
                ),
            ));
        }
        Ok(())
    }

    /// An amount with its unit at the reader: (value, unit, tokens used).
    fn amount(&self) -> Option<(f64, Unit, usize)> {
        let unit_at = |k: usize| match self.peek(k) {
            Some(Tok::Unit(u)) => Some(*u),
            _ => None,
        };
        let (value, unit, used) = match self.peek(0)? {
            Tok::Num(n) => {
                let n = f64::from(*n);
                match self.peek(1)? {
                    Tok::Unit(u) => (n, *u, 2),
                    // 一个半小时
                    Tok::Half => (n + 0.5, unit_at(2)?, 3),
                    // 一刻钟
                    Tok::Quarter => (n * 15.0, Unit::Minute, 2),
                    // 30分后
                    Tok::MinMark => (n, Unit::Minute, 2),
                    _ => return None,
                }
            }
            Tok::Dec(x) => (*x, unit_at(1)?, 2),
            Tok::Half => match self.peek(1)? {
                Tok::Unit(u) => (0.5, *u, 2),
                Tok::Article => (0.5, unit_at(2)?, 3),
                _ => return None,
            },
            Tok::Quarter => match self.peek(1)? {
                Tok::Unit(u) => (0.25, *u, 2),
                Tok::Article => (0.25, unit_at(2)?, 3),
                _ => return None,
            },
            Tok::Article => match self.peek(1)? {
                Tok::Unit(u) => (1.0, *u, 2),
                Tok::Half => (0.5, unit_at(2)?, 3),
                Tok::Quarter => match self.peek(2)? {
                    Tok::Unit(u) => (0.25, *u, 3),
                    Tok::Article => (0.25, unit_at(3)?, 4),
                    _ => return None,
                },
                _ => return None,
            },
            Tok::Other => (2.0, unit_at(1)?, 2),
            _ => return None,
        };
        // "an hour and a half"
        if self.peek(used) == Some(&Tok::And)
            && self.peek(used + 1) == Some(&Tok::Article)
            && self.peek(used + 2) == Some(&Tok::Half)
        {
            return Some((value + 0.5, unit, used + 3));
        }
        Some((value, unit, used))
    }

    /// After "every": an interval ("15 minutes", "hour", "1 hour 30 minutes"), if any.
    fn step(&mut self) -> Result<(), RuleError> {
        let start = self.i;
        let mut total: Option<(f64, Unit)> = None;
        loop {
            let found = match self.amount() {
                Some((v, u, used)) => Some((v, u, used)),
                None => match self.peek(0) {
                    Some(Tok::Unit(u)) if total.is_none() => Some((1.0, *u, 1)),
                    _ => None,
                },
            };
            let Some((value, unit, used)) = found else {
                break;
            };
            total = Some(match total {
                None => (value, unit),
                Some((v, u)) => match (u.seconds(), unit.seconds()) {
                    // "every 1 hour 30 minutes": in the smaller unit.
                    (Some(a), Some(b)) => (v * a / b + value, unit),
                    _ => return Err(self.unexpected()),
                },
            });
            self.i += used;
            if self.peek(0) == Some(&Tok::And) && self.amount_after_and() {
                self.i += 1;
            }
        }
        if let Some(step) = total {
            if self.s.step.is_some() {
                return Err(self.conflict("a repetition"));
            }
            self.s.step = Some(step);
            self.s.step_text = self.toks[start..self.i]
                .iter()
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>()
                .join(if self.zh { "" } else { " " });
        }
        Ok(())
    }

    /// Whether an amount follows the "and" at the reader.
    fn amount_after_and(&mut self) -> bool {
        self.i += 1;
        let found = self.amount().is_some();
        self.i -= 1;
        found
    }

    fn fixed_step(&mut self, value: f64, unit: Unit) -> Result<(), RuleError> {
        if self.s.step.is_some() {
            return Err(self.conflict("a repetition"));
        }
        self.s.every = true;
        self.s.step = Some((value, unit));
        self.s.step_text = self.text(0, 1);
        self.i += 1;
        Ok(())
    }

    /// A construct led by a number or a number word.
    fn number(&mut self, after_at: bool) -> Result<(), RuleError> {
        if let Some(Tok::Num(n)) = self.peek(0).cloned() {
            match self.peek(1).cloned() {
                Some(Tok::HourMark) => return self.zh_time(n),
                Some(Tok::Mer(Mer::Am | Mer::Pm)) => {
                    let text = self.text(0, 1);
                    self.i += 1;
                    self.set_time(n, 0, 0, false, text)?;
                    return self.am_pm();
                }
                Some(Tok::YearMark) => {
                    let year = i32::try_from(n).unwrap_or(i32::MAX);
                    if let (Some(Tok::Num(month)), Some(Tok::Unit(Unit::Month))) =
                        (self.peek(2).cloned(), self.peek(3))
                        && let (Some(Tok::Num(day)), Some(Tok::DayMark)) =
                            (self.peek(4).cloned(), self.peek(5))
                    {
                        self.i += 6;
                        return self.set_day(DayRef::Date {
                            year: Some(year),
                            month,
                            day,
                        });
                    }
                    return Err(not_understood(&self.text(0, 4), self.original));
                }
                Some(Tok::Unit(Unit::Month)) => {
                    if let (Some(Tok::Num(day)), Some(Tok::DayMark)) =
                        (self.peek(2).cloned(), self.peek(3))
                    {
                        self.i += 4;
                        return self.set_day(DayRef::Date {
                            year: None,
                            month: n,
                            day,
                        });
                    }
                }
                Some(Tok::DayMark) => return self.month_day_list(),
                Some(Tok::MonthName(month)) => {
                    self.i += 2;
                    return self.date_with_year(month, n);
                }
                _ => {}
            }
        }
        if let Some((value, unit, used)) = self.amount() {
            let text = self.text(0, used);
            self.s.durations.push((value, unit));
            if !self.s.duration_text.is_empty() {
                self.s.duration_text.push(' ');
            }
            self.s.duration_text.push_str(&text);
            self.i += used;
            return Ok(());
        }
        match self.peek(0).cloned() {
            Some(Tok::Num(n)) if after_at || self.context => {
                let text = self.text(0, 1);
                self.i += 1;
                self.set_time(n, 0, 0, false, text)?;
                self.am_pm()
            }
            Some(Tok::Num(_)) => Err(RuleError::with_forms(
                RuleErrorKind::NotUnderstood,
                format!(
                    "the number '{}' in '{}' has no unit and is not a time: say 'in {0} minutes', \
                     'every {0} minutes' or 'at {0}:00'",
                    self.text(0, 1),
                    self.original
                ),
            )),
            _ => Err(self.unexpected()),
        }
    }

    /// am/pm right after an hour.
    fn am_pm(&mut self) -> Result<(), RuleError> {
        if let Some(Tok::Mer(m @ (Mer::Am | Mer::Pm))) = self.peek(0).cloned() {
            self.set_mer(m)?;
            self.i += 1;
        }
        Ok(())
    }

    /// 9点, 9点半, 9点30分, 9点30, 9点一刻, 9点三刻.
    fn zh_time(&mut self, hour: u32) -> Result<(), RuleError> {
        let start = self.i;
        self.i += 2;
        let minute = match (self.peek(0).cloned(), self.peek(1)) {
            (Some(Tok::Half), _) => {
                self.i += 1;
                30
            }
            (Some(Tok::Num(q)), Some(Tok::Quarter)) => {
                self.i += 2;
                if !(1..=3).contains(&q) {
                    let text: String = self.toks[start..self.i]
                        .iter()
                        .map(|t| t.text.as_str())
                        .collect();
                    return Err(not_understood(&text, self.original));
                }
                q * 15
            }
            (Some(Tok::Num(m)), Some(Tok::MinMark)) => {
                self.i += 2;
                m
            }
            (Some(Tok::Num(m)), next)
                if !matches!(
                    next,
                    Some(
                        Tok::Unit(_)
                            | Tok::HourMark
                            | Tok::DayMark
                            | Tok::Half
                            | Tok::Quarter
                            | Tok::YearMark
                    )
                ) =>
            {
                self.i += 1;
                m
            }
            _ => 0,
        };
        let text = self.toks[start..self.i]
            .iter()
            .map(|t| t.text.as_str())
            .collect::<String>();
        self.set_time(hour, minute, 0, false, text)?;
        self.am_pm()
    }

    /// "mon, wed and fri", "monday to friday", "周一、三、五", "周一至周五", "周六日".
    fn weekday_list(&mut self, mode: WeekMode) -> Result<(), RuleError> {
        if !self.s.weekdays_list.is_empty() {
            return Err(self.conflict("weekdays"));
        }
        let mut days: Vec<Weekday> = Vec::new();
        let mut plural = false;
        match self.peek(0) {
            Some(Tok::Weekday(d)) => days.push(*d),
            Some(Tok::WeekdayPlural(d)) => {
                days.push(*d);
                plural = true;
            }
            _ => return Err(self.unexpected()),
        }
        self.i += 1;
        loop {
            let (range, skip) = match self.peek(0) {
                Some(Tok::And) => (false, 1),
                Some(Tok::Range) => (true, 1),
                _ => (false, 0),
            };
            let next = match self.peek(skip) {
                Some(Tok::Weekday(d)) => Some(*d),
                Some(Tok::WeekdayPlural(d)) => {
                    plural = true;
                    Some(*d)
                }
                // 周一、三、五; 周一到五
                Some(Tok::Num(n @ 1..=7))
                    if self.zh
                        && skip == 1
                        && !matches!(
                            self.peek(skip + 1),
                            Some(
                                Tok::Unit(_)
                                    | Tok::HourMark
                                    | Tok::MinMark
                                    | Tok::DayMark
                                    | Tok::Half
                                    | Tok::Quarter
                                    | Tok::YearMark
                            )
                        ) =>
                {
                    char::from_digit(*n, 10).and_then(weekday_char)
                }
                // 周六日, 周六、日
                Some(Tok::DayMark | Tok::Unit(Unit::Day)) if self.zh => Some(Weekday::Sun),
                _ => None,
            };
            let Some(day) = next else {
                break;
            };
            if range {
                let mut d = days.last().copied().unwrap_or(day);
                while d != day {
                    d = d.succ();
                    days.push(d);
                }
            } else {
                days.push(day);
            }
            self.i += skip + 1;
        }
        self.s.weekdays_list = days;
        self.s.week_mode = mode;
        self.s.plural |= plural;
        Ok(())
    }

    /// "1st and 15th", "1号、15号".
    fn month_day_list(&mut self) -> Result<(), RuleError> {
        if !self.s.month_days.is_empty() {
            return Err(self.conflict("days of the month"));
        }
        loop {
            match (self.peek(0).cloned(), self.peek(1)) {
                (Some(Tok::Ordinal(n)), _) => {
                    self.s.month_days.push(n);
                    self.i += 1;
                }
                (Some(Tok::Num(n)), Some(Tok::DayMark)) => {
                    self.s.month_days.push(n);
                    self.i += 2;
                }
                _ => break,
            }
            let more = matches!(
                (self.peek(1), self.peek(2)),
                (Some(Tok::Ordinal(_)), _) | (Some(Tok::Num(_)), Some(Tok::DayMark))
            );
            if self.peek(0) == Some(&Tok::And) && more {
                self.i += 1;
            }
        }
        Ok(())
    }

    /// "december 24", "dec 24th 2026".
    fn month_name(&mut self, month: u32) -> Result<(), RuleError> {
        match self.peek(1).cloned() {
            Some(Tok::Num(day) | Tok::Ordinal(day)) => {
                self.i += 2;
                self.date_with_year(month, day)
            }
            _ => Err(self.unexpected()),
        }
    }

    /// After a month and day: an optional year ("dec 24 2026", "24 dec, 2026").
    fn date_with_year(&mut self, month: u32, day: u32) -> Result<(), RuleError> {
        let year = match (self.peek(0).cloned(), self.peek(1).cloned()) {
            (Some(Tok::Num(y)), next) if y >= 1000 && next != Some(Tok::HourMark) => {
                self.i += 1;
                Some(y)
            }
            (Some(Tok::And), Some(Tok::Num(y))) if y >= 1000 => {
                self.i += 2;
                Some(y)
            }
            _ => None,
        };
        self.set_day(DayRef::Date {
            year: year.map(|y| i32::try_from(y).unwrap_or(i32::MAX)),
            month,
            day,
        })
    }

    fn set_time(
        &mut self,
        hour: u32,
        minute: u32,
        second: u32,
        fixed: bool,
        text: String,
    ) -> Result<(), RuleError> {
        if self.s.time.is_some() {
            return Err(self.conflict("a time of day"));
        }
        self.s.time = Some(SaidTime {
            hour,
            minute,
            second,
            fixed,
        });
        self.s.time_text = text;
        Ok(())
    }

    fn set_day(&mut self, day: DayRef) -> Result<(), RuleError> {
        if self.s.day.is_some() {
            return Err(self.conflict("a day"));
        }
        self.s.day = Some(day);
        Ok(())
    }

    fn set_mer(&mut self, mer: Mer) -> Result<(), RuleError> {
        match self.s.mer {
            Some(m) if m != mer => Err(self.conflict("a part of the day")),
            _ => {
                self.s.mer = Some(mer);
                Ok(())
            }
        }
    }
}
