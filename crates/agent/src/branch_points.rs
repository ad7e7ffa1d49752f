//! Where the path a conversation shows has siblings (an edited message, a regenerated
//! reply): read from its tree, for the conversation as the chat shows it.

use std::collections::HashMap;

use deskmate_store::conversation_tree::Node;
use serde::Serialize;

/// A message of the path shown that has siblings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct BranchPoint {
    /// The message shown (an entry's `seq`).
    pub seq: i64,
    /// Which of its siblings it is, from 1.
    pub index: usize,
    /// How many siblings there are (itself included).
    pub count: usize,
    /// The siblings' seqs, oldest first (show one with `PUT …/branch`).
    pub siblings: Vec<i64>,
}

/// The branch points of `path` (seqs, root first) in `tree`.
pub(crate) fn branch_points(tree: &[Node], path: &[i64]) -> Vec<BranchPoint> {
    let parent_of: HashMap<i64, Option<i64>> = tree.iter().map(|n| (n.seq, n.parent_seq)).collect();
    // Children by parent, oldest first (the tree is in seq order).
    let mut children: HashMap<Option<i64>, Vec<i64>> = HashMap::new();
    for n in tree {
        children.entry(n.parent_seq).or_default().push(n.seq);
    }
    path.iter()
        .filter_map(|&seq| {
            let siblings = children.get(parent_of.get(&seq)?)?;
            let index = siblings.iter().position(|&s| s == seq)? + 1;
            (siblings.len() > 1).then(|| BranchPoint {
                seq,
                index,
                count: siblings.len(),
                siblings: siblings.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(seq: i64, parent_seq: Option<i64>) -> Node {
        Node { seq, parent_seq }
    }

    #[test]
    fn siblings_are_counted_where_the_path_has_them() {
        // 1 ← 2 ← {3 ← 4, 5 ← 6, 7}; the path shown is 1, 2, 5, 6.
        let tree = [
            node(1, None),
            node(2, Some(1)),
            node(3, Some(2)),
            node(4, Some(3)),
            node(5, Some(2)),
            node(6, Some(5)),
            node(7, Some(2)),
        ];
        assert_eq!(
            branch_points(&tree, &[1, 2, 5, 6]),
            [BranchPoint {
                seq: 5,
                index: 2,
                count: 3,
                siblings: vec![3, 5, 7]
            }]
        );
        assert_eq!(branch_points(&tree, &[1, 2]), []);
    }
}
