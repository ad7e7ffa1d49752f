//! What a person calls a variable of a clinical dataset, and the names it has in the file.
//!
//! People ask for "gender", "treatment arm" or "年龄组"; CDISC datasets name those columns
//! `SEX`, `TRT01A` and `AGEGR1`. A model that guesses the person's word as a column name
//! gets a "no such variable" error, and the closest names by spelling ("gender" →
//! `GENDER`-like names that do not exist, or `AGE`) do not help it fix the call. The
//! error's options therefore start with the columns this table says the word means,
//! and only then the names closest in spelling. Nothing is resolved silently: the model
//! (or the person) picks the column.

/// Words (lowercase English, or Chinese) and the variables they mean, most usual first.
/// Longer phrases come before the words they contain ("age group" before "age").
const CONCEPTS: &[(&[&str], &[&str])] = &[
    (
        &[
            "age group",
            "age band",
            "age category",
            "age class",
            "年龄组",
            "年龄段",
            "年龄分组",
            "年龄层",
        ],
        &["AGEGR1", "AGEGR1N", "AGEGR2"],
    ),
    (&["age", "年龄", "岁数"], &["AGE"]),
    (
        &["sex", "gender", "male", "female", "性别", "男女"],
        &["SEX", "SEXN"],
    ),
    (&["race", "种族", "人种"], &["RACE", "RACEN"]),
    (&["ethnic", "民族"], &["ETHNIC", "ETHNICN"]),
    (
        &[
            "treatment",
            "arm",
            "trt",
            "cohort",
            "dose group",
            "治疗",
            "组别",
            "剂量组",
            "给药组",
        ],
        &["TRT01A", "TRT01P", "ARM", "ACTARM", "TRTA", "TRTP"],
    ),
    (
        &["site", "center", "centre", "中心"],
        &["SITEID", "SITEGR1"],
    ),
    (&["country", "国家"], &["COUNTRY"]),
    (&["weight", "体重"], &["WEIGHTBL", "WEIGHT"]),
    (&["height", "身高"], &["HEIGHTBL", "HEIGHT"]),
    (
        &["bmi", "body mass", "体质指数", "体重指数"],
        &["BMIBL", "BMIBLGR1"],
    ),
    (
        &[
            "subject",
            "patient",
            "participant",
            "受试者",
            "患者",
            "病人",
        ],
        &["USUBJID", "SUBJID"],
    ),
    (&["safety", "安全性"], &["SAFFL"]),
    (&["itt", "intent", "意向"], &["ITTFL"]),
    (&["efficacy", "有效性", "疗效"], &["EFFFL"]),
    (
        &[
            "discontinu",
            "withdraw",
            "dropout",
            "reason",
            "停药",
            "退出",
            "脱落",
        ],
        &["DCDECOD", "DCREASCD", "DCSREAS"],
    ),
    (&["education", "教育"], &["EDUCLVL"]),
    (
        &["duration of disease", "disease duration", "病程"],
        &["DURDIS", "DURDSGR1"],
    ),
    (
        &["treatment duration", "exposure", "治疗时长", "暴露"],
        &["TRTDURD"],
    ),
];

/// Words that say which of a concept's variables is meant: the planned treatment is not
/// the actual one.
const QUALIFIERS: &[(&[&str], &[&str])] = &[
    (&["planned", "计划"], &["TRT01P", "ARM", "TRTP"]),
    (&["actual", "实际"], &["TRT01A", "ACTARM", "TRTA"]),
];

/// The variables of `columns` that `wanted` means, most usual first; empty when the
/// words are not known or none of their variables is in the dataset.
pub(super) fn meant<'a>(
    wanted: &str,
    columns: impl Iterator<Item = &'a str> + Clone,
) -> Vec<String> {
    let text = wanted.trim().to_lowercase().replace(['_', '-'], " ");
    if text.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<String> = Vec::new();
    for (words, variables) in CONCEPTS {
        if !words.iter().any(|w| crate::words::mentions(&text, w)) {
            continue;
        }
        for variable in *variables {
            let present = columns.clone().find(|c| c.eq_ignore_ascii_case(variable));
            if let Some(name) = present
                && !found.iter().any(|f| f == name)
            {
                found.push(name.to_string());
            }
        }
        // A phrase that matched ("age group") answers for the words inside it ("age").
        if !found.is_empty() {
            break;
        }
    }
    for (words, preferred) in QUALIFIERS {
        if words.iter().any(|w| crate::words::mentions(&text, w)) {
            // Stable: the preferred variables first, in their order, the rest after.
            found.sort_by_key(|name| {
                preferred
                    .iter()
                    .position(|p| name.eq_ignore_ascii_case(p))
                    .unwrap_or(preferred.len())
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADSL: [&str; 9] = [
        "USUBJID", "TRT01P", "TRT01A", "AGE", "AGEGR1", "SEX", "RACE", "WEIGHTBL", "SITEID",
    ];

    #[test]
    fn a_persons_word_finds_the_variable_it_means() {
        let cols = ADSL.iter().copied();
        assert_eq!(meant("gender", cols.clone()), ["SEX"]);
        assert_eq!(meant("性别", cols.clone()), ["SEX"]);
        assert_eq!(meant("treatment arm", cols.clone()), ["TRT01A", "TRT01P"]);
        assert_eq!(meant("年龄组", cols.clone()), ["AGEGR1"]);
        assert_eq!(meant("age_group", cols.clone()), ["AGEGR1"]);
        assert_eq!(meant("Age", cols.clone()), ["AGE"]);
        assert_eq!(meant("body weight", cols.clone()), ["WEIGHTBL"]);
        assert_eq!(meant("treatments", cols.clone()), ["TRT01A", "TRT01P"]);
        assert_eq!(
            meant("planned treatment arm", cols.clone()),
            ["TRT01P", "TRT01A"]
        );
        assert_eq!(
            meant("planned_treatment_arm", cols.clone()),
            ["TRT01P", "TRT01A"]
        );
        assert_eq!(meant("计划治疗组", cols.clone()), ["TRT01P", "TRT01A"]);
        assert_eq!(meant("受试者年龄", cols.clone()), ["AGE"]);
    }

    #[test]
    fn unknown_words_and_absent_variables_give_nothing() {
        let cols = ADSL.iter().copied();
        assert!(meant("colour", cols.clone()).is_empty());
        assert!(meant("", cols.clone()).is_empty());
        assert!(
            meant("country", cols.clone()).is_empty(),
            "no COUNTRY column"
        );
        assert!(meant("average", cols).is_empty(), "'age' inside a word");
    }
}
