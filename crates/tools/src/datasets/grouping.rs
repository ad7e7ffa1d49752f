//! The grouping variable of a table (`frequency`'s `by`, `summarize_by_group`'s
//! `group_by`): a variable with a few values that splits the rows into groups.
//!
//! Models add a grouping that was not asked for, or one that cannot group: the
//! variable itself ("SEX by SEX"), a word that is no column ("by subjects"), or a
//! continuous variable ("RACE by AGE": one group per age). Grouping a variable by
//! itself only repeats its counts, so the table is made without groups and says so.
//! The others are errors that name the argument, say it is optional, and offer only
//! variables that can group, those the word means first.

use deskmate_core::ToolError;

use super::{Column, Dataset, concepts, distinct_values};

/// A grouping variable has at most this many distinct values (one group per value).
pub const MAX_GROUPS: usize = 30;

/// How a table is grouped.
#[derive(Debug)]
pub enum Grouping<'a> {
    /// By this variable.
    By(&'a Column),
    /// Not at all: none was asked for.
    None,
    /// Not at all: the grouping variable was the variable itself.
    Itself,
}

impl Grouping<'_> {
    /// The grouping column, if any.
    pub fn column(&self) -> Option<&Column> {
        match self {
            Grouping::By(column) => Some(column),
            Grouping::None | Grouping::Itself => None,
        }
    }

    /// A note for the result when the grouping asked for was dropped.
    pub fn note(&self, argument: &str) -> Option<String> {
        match self {
            Grouping::Itself => Some(format!(
                "'{argument}' named the variable itself, so the table has no groups"
            )),
            Grouping::By(_) | Grouping::None => None,
        }
    }
}

impl Dataset {
    /// The grouping named by `argument` (`None` when absent) for a table of `variable`.
    pub fn grouping<'a>(
        &'a self,
        argument: &str,
        name: Option<&str>,
        variable: &Column,
    ) -> Result<Grouping<'a>, ToolError> {
        let Some(name) = name else {
            return Ok(Grouping::None);
        };
        let optional = format!(
            "'{argument}' is optional: leave it out for one table over all rows of {}",
            variable.name
        );
        let column = match self.column(name) {
            Ok(column) => column,
            Err(e) => {
                return Err(ToolError::validation(format!("{argument}: {}", e.message))
                    .with_hint(format!(
                        "{optional}; to group, use a variable from the options"
                    ))
                    .with_options(self.groupable_like(name)));
            }
        };
        if column.name == variable.name {
            return Ok(Grouping::Itself);
        }
        let groups = distinct_values(column);
        if groups > MAX_GROUPS {
            return Err(ToolError::validation(format!(
                "{argument}: '{}' has {groups} distinct values, too many to group by (at most \
                 {MAX_GROUPS})",
                column.name
            ))
            .with_hint(format!(
                "{optional}; to group, use a variable with a few values from the options"
            ))
            .with_options(self.groupable_like(name)));
        }
        Ok(Grouping::By(column))
    }

    /// Variables that can group, those `wanted` means or starts like first (for `AGE`,
    /// `AGEGR1`), up to 8.
    fn groupable_like(&self, wanted: &str) -> Vec<String> {
        let groupable: Vec<&str> = self
            .columns
            .iter()
            .filter(|c| !c.name.is_empty() && (2..=MAX_GROUPS).contains(&distinct_values(c)))
            .map(|c| c.name.as_str())
            .collect();
        let prefix = wanted.trim().to_uppercase();
        let mut options: Vec<String> = concepts::meant(wanted, groupable.iter().copied());
        let alike = groupable
            .iter()
            .filter(|c| prefix.len() >= 2 && c.to_uppercase().starts_with(&prefix));
        for name in alike.chain(groupable.iter()) {
            if options.len() >= 8 {
                break;
            }
            if !options.iter().any(|o| o == name) {
                options.push((*name).to_string());
            }
        }
        options
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datasets::DatasetDir;

    /// 40 subjects: 40 ages, 3 age groups, 2 sexes.
    fn dataset() -> (tempfile::TempDir, Dataset) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut csv = String::from("USUBJID,AGE,AGEGR1,SEX\n");
        for i in 0..40 {
            let group = ["<65", "65-80", ">80"][i % 3];
            let sex = ["F", "M"][i % 2];
            csv.push_str(&format!("S-{i},{},{group},{sex}\n", 50 + i));
        }
        std::fs::write(dir.path().join("dm.csv"), csv).unwrap_or_else(|e| panic!("{e}"));
        let data = DatasetDir::scan(dir.path())
            .load("dm")
            .unwrap_or_else(|e| panic!("{e}"));
        (dir, data)
    }

    fn column<'a>(data: &'a Dataset, name: &str) -> &'a Column {
        data.column(name).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn a_variable_with_a_few_values_groups_and_none_is_no_grouping() {
        let (_dir, data) = dataset();
        let sex = column(&data, "SEX");
        let by = data.grouping("by", Some("agegr1"), sex);
        assert_eq!(
            by.ok().and_then(|g| g.column().map(|c| c.name.clone())),
            Some("AGEGR1".to_string())
        );
        let none = data
            .grouping("by", None, sex)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(none.column().is_none() && none.note("by").is_none());
    }

    #[test]
    fn grouping_a_variable_by_itself_is_no_grouping_with_a_note() {
        let (_dir, data) = dataset();
        let itself = data
            .grouping("by", Some("SEX"), column(&data, "SEX"))
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(itself.column().is_none());
        assert!(itself.note("by").is_some_and(|n| n.contains("'by'")));
    }

    #[test]
    fn a_word_that_is_no_column_names_the_argument_and_offers_only_groupings() {
        let (_dir, data) = dataset();
        let err = data
            .grouping("by", Some("subjects"), column(&data, "SEX"))
            .err()
            .unwrap_or_else(|| panic!("grouped by a word"));
        assert!(err.message.starts_with("by: "), "{err:?}");
        assert!(
            err.hint.as_deref().is_some_and(|h| h.contains("optional")),
            "{err:?}"
        );
        // USUBJID is what "subjects" means, but one group per subject groups nothing.
        assert!(!err.options.iter().any(|o| o == "USUBJID"), "{err:?}");
        assert!(err.options.iter().any(|o| o == "AGEGR1"), "{err:?}");
    }

    #[test]
    fn a_continuous_variable_does_not_group_and_its_grouped_form_is_offered_first() {
        let (_dir, data) = dataset();
        let err = data
            .grouping("group_by", Some("AGE"), column(&data, "SEX"))
            .err()
            .unwrap_or_else(|| panic!("grouped by 40 ages"));
        assert!(
            err.message
                .starts_with("group_by: 'AGE' has 40 distinct values"),
            "{err:?}"
        );
        assert_eq!(err.options.first().map(String::as_str), Some("AGEGR1"));
    }
}
