//! `voice_choice_prompt`: say a question and its options aloud, then listen for the answer
//! (microphone → speech recognition → [`crate::answer::option_named`]). The same question
//! is open in the app's dialog and at `POST /api/v1/prompts/{id}/answer`: whichever
//! answer comes first counts, and the other is withdrawn.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use deskmate_core::{
    Category, ErrorType, JsonSchema, Localized, SideEffect, ToolError, ToolSpec, read_args,
    schema_for,
};
use deskmate_tools::{Example, Teaches, Tool, ToolContext};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::answer::option_named;
use crate::choice::{Chooser, Question, withdrawn};
use crate::error::DeviceError;
use crate::microphone::{Listen, Microphone, TranscriberSlot, wav_bytes};
use crate::speaker::{Language, Speaker, Speech};
use crate::volume::device_error;

/// What the tool uses.
#[derive(Debug, Clone)]
pub struct Ears {
    /// Says the question.
    pub speaker: Arc<dyn Speaker>,
    /// Hears the answer.
    pub microphone: Arc<dyn Microphone>,
    /// Understands it.
    pub transcriber: TranscriberSlot,
    /// Also shows the question (the app's dialog, the API), when there is one.
    pub chooser: Option<Arc<dyn Chooser>>,
}

/// The tool.
#[derive(Debug)]
pub struct VoiceChoicePrompt {
    spec: ToolSpec,
    ears: Ears,
}

/// `voice_choice_prompt` on these devices.
pub fn voice_choice_prompt(ears: Ears) -> VoiceChoicePrompt {
    VoiceChoicePrompt { spec: spec(), ears }
}

/// A choice question said aloud: the question's arguments and the language. Serde
/// cannot refuse unknown fields of a struct that flattens another, so reading this type
/// would accept them: the schema refuses them (`additionalProperties: false`), and the
/// guard checks it before any call reaches the tool.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
struct VoiceQuestion {
    #[serde(flatten)]
    question: Question,
    #[schemars(
        description = "Voice and listening language; by default Chinese when the question has Chinese characters, else English.",
        extend("x-description-zh" = "朗读和识别所用的语言；默认情况下，问题含有汉字时用中文，否则用英文。")
    )]
    language: Option<Language>,
}

fn spec() -> ToolSpec {
    ToolSpec {
        id: "voice_choice_prompt".into(),
        name: Localized::new("语音选项提示", "Voice choice prompt"),
        summary: Some(Localized::new(
            "把问题和选项读出来，然后听你说出选择；也可以在弹出的对话框里点选。",
            "Reads a question and its options aloud and listens for your spoken choice; you can also click it in a dialog.",
        )),
        description: "Asks the user a question with 2 to 10 distinct options out loud and \
            listens for the spoken answer (the option's words, or its place: 'the second \
            one', '第二个'); the question is also shown as a dialog, and a click counts too. \
            Use it when the user is talking to Deskmate and must decide between \
            alternatives. Returns the chosen option, its index (0-based) and how it was \
            given (voice or dialog)."
            .into(),
        category: Category::System,
        parameters: schema_for::<VoiceQuestion>(),
        side_effect: SideEffect::Read,
        idempotent: false,
        timeout_ms: 660_000,
        compensation: None,
    }
}

/// The words said aloud: the question, then each option with its place.
fn spoken_question(question: &Question, language: Language) -> String {
    const ZH: [&str; 10] = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十"];
    let mut text = question.question.trim().to_string();
    let (stop, between) = match language {
        Language::Zh => ("。", ""),
        Language::En => (".", " "),
    };
    if !text.ends_with(['.', '?', '!', '。', '？', '！', ':', '：']) {
        text.push_str(stop);
    }
    let options: Vec<String> = question
        .options
        .iter()
        .enumerate()
        .map(|(i, option)| match language {
            Language::Zh => format!("第{}个：{option}。", ZH[i.min(9)]),
            Language::En => format!("Option {}: {option}.", i + 1),
        })
        .collect();
    format!("{text}{between}{}", options.join(between))
}

fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Why listening ended without an answer.
enum Unheard {
    /// The time is up; these were heard and named no option.
    TimedOut(Vec<String>),
    /// The microphone or the recognizer failed.
    Failed(ToolError),
}

/// Sets the flag when dropped: a withdrawn listen stops the microphone's thread.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

fn asr_failed(error: &DeviceError) -> ToolError {
    device_error(error.clone())
}

impl VoiceChoicePrompt {
    /// Listens until an utterance names an option or the deadline passes.
    async fn listen(
        &self,
        question: &Question,
        language: Language,
        deadline: Instant,
    ) -> Result<(usize, String), Unheard> {
        let Some(transcriber) = self.ears.transcriber.get() else {
            return Err(Unheard::Failed(
                ToolError::not_found("no speech recognition here: no ASR model is configured")
                    .with_hint(
                        "add an ASR model (POST /api/v1/models/asr), or use text_choice_prompt",
                    ),
            ));
        };
        let stop = Arc::new(AtomicBool::new(false));
        let _stop = StopOnDrop(stop.clone());
        let code = match language {
            Language::Zh => "zh",
            Language::En => "en",
        };
        let mut heard = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left < Duration::from_millis(300) {
                return Err(Unheard::TimedOut(heard));
            }
            let microphone = self.ears.microphone.clone();
            let flag = stop.clone();
            let listen = Listen {
                wait: left,
                ..Listen::default()
            };
            let utterance = tokio::task::spawn_blocking(move || microphone.listen(listen, &flag))
                .await
                .map_err(|e| {
                    Unheard::Failed(ToolError::new(
                        ErrorType::Internal,
                        format!("the microphone's thread failed: {e}"),
                    ))
                })?
                .map_err(|e| Unheard::Failed(device_error(e)))?;
            let Some(wav) = utterance else {
                continue;
            };
            let text = transcriber
                .transcribe(wav_bytes(&wav), Some(code), &question.options)
                .await
                .map_err(|e| Unheard::Failed(asr_failed(&e)))?;
            let text = text.trim().to_string();
            tracing::debug!(heard = %text, "voice answer");
            if let Some(index) = option_named(&text, &question.options) {
                return Ok((index, text));
            }
            if !text.is_empty() {
                heard.push(text);
            }
        }
    }
}

/// How a person asks to choose out loud, in everyday words (beside a request near them).
const EXAMPLES: &[Example] = &[
    Example {
        teaches: Teaches::Wording,
        request: "with your voice, ask whether I'd rather walk or bike",
        parts: &[],
        calls: &[(
            "voice_choice_prompt",
            r#"{"question":"Walk or bike?","options":["Walk","Bike"]}"#,
        )],
    },
    Example {
        teaches: Teaches::Wording,
        request: "出声问问我要现在开始还是晚点",
        parts: &[],
        calls: &[(
            "voice_choice_prompt",
            r#"{"question":"现在还是晚点？","options":["现在","晚点"]}"#,
        )],
    },
];

#[async_trait]
impl Tool for VoiceChoicePrompt {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn examples(&self) -> &[Example] {
        EXAMPLES
    }

    /// Never run (it would speak and listen): the speaker is ready, and an answer can come
    /// by voice (a microphone and an ASR model) or in a dialog.
    fn self_check(&self) -> deskmate_tools::SelfCheck {
        let ears = self.ears.clone();
        deskmate_tools::SelfCheck::device("Speaker", move || {
            use crate::readiness::{device_name, explain};
            use deskmate_core::said;
            let named = |device: &str, text: Localized| {
                let name = device_name(device);
                Localized::new(
                    format!("{}：{}", name.zh, text.zh),
                    format!("{}: {}", name.en, text.en),
                )
            };
            let speaker = crate::readiness::speaker(ears.speaker.as_ref())
                .map_err(|e| named("Speaker", explain("Speaker", &e)))?;
            let voice = match (ears.microphone.probe(), ears.transcriber.get().is_some()) {
                (Ok(_), true) => said!("可以用语音或对话框回答", "answers by voice or in a dialog"),
                (Err(_), _) | (_, false) if ears.chooser.is_some() => said!(
                    "只能在对话框中回答（没有麦克风，或没有用来听的 ASR 模型）",
                    "answers in a dialog only (no microphone or no ASR model to listen with)"
                ),
                (Err(e), _) => return Err(named("Microphone", explain("Microphone", &e))),
                (Ok(_), false) => {
                    return Err(said!(
                        "没有用来听的 ASR 模型，也没有可以回答的对话框：请在“模型”页面添加 ASR 模型",
                        "no ASR model to listen with and no dialog to answer in: add an ASR model under Models"
                    ));
                }
            };
            let speaker = named("Speaker", speaker);
            Ok(Localized::new(
                format!("{}；{}", speaker.zh, voice.zh),
                format!("{}; {}", speaker.en, voice.en),
            ))
        })
    }

    fn fits(&self, args: &Value) -> Result<(), ToolError> {
        read_args::<VoiceQuestion>(&self.spec.id, args).map(drop)
    }

    async fn run(&self, args: Value, ctx: ToolContext) -> Result<Value, ToolError> {
        let VoiceQuestion { question, language } = read_args(&self.spec.id, &args)?;
        let question = question.checked()?;
        let language = language.unwrap_or(if has_chinese(&question.question) {
            Language::Zh
        } else {
            Language::En
        });
        if self.ears.transcriber.get().is_none() && self.ears.chooser.is_none() {
            return Err(ToolError::not_found(
                "nobody can answer here: no ASR model to listen with, and no window or server to show the question",
            )
            .with_hint("add an ASR model (POST /api/v1/models/asr) and run Deskmate's app or `deskmate serve`"));
        }
        let deadline = Instant::now() + Duration::from_secs(question.seconds);

        // The dialog opens while the question is said, so a click can come at once.
        let clicked = async {
            match &self.ears.chooser {
                Some(chooser) => {
                    chooser
                        .choose(
                            &question.question,
                            &question.options,
                            Duration::from_secs(question.seconds),
                        )
                        .await
                }
                None => std::future::pending().await,
            }
        };
        tokio::pin!(clicked);

        let speaker = self.ears.speaker.clone();
        let speech = Speech {
            text: spoken_question(&question, language),
            language,
            rate: 160,
        };
        let said = tokio::task::spawn_blocking(move || speaker.speak(&speech));
        let spoken = tokio::select! {
            said = said => said.map_err(|e| ToolError::new(ErrorType::Internal, format!("the speaker's thread failed: {e}")))?,
            answer = &mut clicked => return dialog_answer(&question, answer, &[]),
            () = ctx.cancel.cancelled() => return Err(withdrawn()),
        };
        let spoken = spoken.map_err(device_error)?;

        let heard = tokio::select! {
            heard = self.listen(&question, language, deadline) => heard,
            answer = &mut clicked => return dialog_answer(&question, answer, &[]),
            () = ctx.cancel.cancelled() => return Err(withdrawn()),
        };
        match heard {
            Ok((index, text)) => Ok(crate::choice::chosen(
                json!({
                    "choice": question.options[index],
                    "index": index,
                    "via": "voice",
                    "heard": text,
                    "spoken_ms": spoken.duration_ms,
                }),
                &question.options[index],
            )),
            // Nothing more to hear: the dialog may still be answered.
            Err(unheard) => {
                let (heard, failure) = match unheard {
                    Unheard::TimedOut(heard) => (heard, None),
                    Unheard::Failed(error) => (Vec::new(), Some(error)),
                };
                if self.ears.chooser.is_none() || Instant::now() >= deadline {
                    return Err(failure.unwrap_or_else(|| question.timed_out(&heard)));
                }
                if let Some(error) = &failure {
                    tracing::warn!(error = %error.message, "listening failed; waiting for the dialog");
                }
                tokio::select! {
                    answer = &mut clicked => dialog_answer(&question, answer, &heard),
                    () = ctx.cancel.cancelled() => Err(withdrawn()),
                }
            }
        }
    }
}

fn dialog_answer(
    question: &Question,
    answer: Option<usize>,
    heard: &[String],
) -> Result<Value, ToolError> {
    match answer {
        Some(index) if index < question.options.len() => Ok(crate::choice::chosen(
            json!({
                "choice": question.options[index],
                "index": index,
                "via": "dialog",
            }),
            &question.options[index],
        )),
        _ => Err(question.timed_out(heard)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::microphone::{SimulatedMicrophone, Transcriber};
    use crate::speaker::{SimulatedSpeaker, Wav};
    use deskmate_tools::ToolContext;

    /// Hears the text a test "said": simulated utterances carry it as their samples.
    #[derive(Debug)]
    struct Literal;

    #[async_trait]
    impl Transcriber for Literal {
        async fn transcribe(
            &self,
            wav: Vec<u8>,
            _: Option<&str>,
            _: &[String],
        ) -> Result<String, DeviceError> {
            let samples = crate::speaker::parse_wav(&wav).map(|w| w.samples);
            let bytes: Vec<u8> = samples
                .unwrap_or_default()
                .iter()
                .filter_map(|s| u8::try_from(*s).ok())
                .collect();
            Ok(String::from_utf8_lossy(&bytes).into_owned())
        }
    }

    fn said(text: &str) -> Wav {
        Wav {
            rate: 16_000,
            samples: text.bytes().map(i16::from).collect(),
        }
    }

    #[derive(Debug)]
    struct Clicks(Option<usize>, Duration);

    #[async_trait]
    impl Chooser for Clicks {
        async fn choose(&self, _: &str, _: &[String], _: Duration) -> Option<usize> {
            tokio::time::sleep(self.1).await;
            self.0
        }
    }

    fn tool(
        heard: &[&str],
        chooser: Option<Arc<dyn Chooser>>,
        asr: bool,
    ) -> (VoiceChoicePrompt, Arc<SimulatedSpeaker>) {
        let speaker = Arc::new(SimulatedSpeaker::default());
        let transcriber = TranscriberSlot::default();
        if asr {
            transcriber.set(Arc::new(Literal));
        }
        let ears = Ears {
            speaker: speaker.clone(),
            microphone: Arc::new(SimulatedMicrophone::hearing(heard.iter().map(|h| said(h)))),
            transcriber,
            chooser,
        };
        (voice_choice_prompt(ears), speaker)
    }

    async fn ask(tool: &VoiceChoicePrompt, args: Value) -> Result<Value, ToolError> {
        tool.run(args, ToolContext::new("t")).await
    }

    #[tokio::test]
    async fn a_spoken_answer_chooses_after_the_question_was_said() {
        let (tool, speaker) = tool(&["um", "the second one"], None, true);
        let answer = ask(
            &tool,
            json!({"question": "Which color?", "options": ["Red", "Green", "Blue"], "timeout_s": 5}),
        )
        .await
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(answer["choice"], "Green");
        assert_eq!(answer["index"], 1);
        assert_eq!(answer["via"], "voice");
        assert_eq!(
            deskmate_tools::said::line(&answer, false),
            Some("Chosen: \"Green\"")
        );
        assert_eq!(answer["heard"], "the second one");
        let said = speaker.said();
        assert_eq!(
            said[0].text,
            "Which color? Option 1: Red. Option 2: Green. Option 3: Blue."
        );
    }

    #[tokio::test]
    async fn chinese_questions_are_said_and_heard_in_chinese() {
        let (tool, speaker) = tool(&["第三个"], None, true);
        let answer = ask(
            &tool,
            json!({"question": "要怎么处理？", "options": ["继续", "取消", "稍后提醒"], "timeout_s": 5}),
        )
        .await
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(answer["choice"], "稍后提醒");
        assert_eq!(speaker.said()[0].language, Language::Zh);
        assert!(speaker.said()[0].text.contains("第二个：取消"));
    }

    #[tokio::test]
    async fn a_click_counts_while_nobody_speaks() {
        let chooser: Arc<dyn Chooser> = Arc::new(Clicks(Some(0), Duration::from_millis(200)));
        let (tool, _) = tool(&[], Some(chooser), true);
        let answer = ask(
            &tool,
            json!({"question": "Proceed?", "options": ["Yes", "No"], "timeout_s": 5}),
        )
        .await
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(answer["choice"], "Yes");
        assert_eq!(answer["via"], "dialog");
        assert_eq!(
            deskmate_tools::said::line(&answer, true),
            Some("选择了“Yes”")
        );
    }

    #[tokio::test]
    async fn without_asr_the_dialog_still_answers_and_alone_it_is_an_error() {
        let chooser: Arc<dyn Chooser> = Arc::new(Clicks(Some(1), Duration::from_millis(100)));
        let (with_dialog, _) = tool(&[], Some(chooser), false);
        let answer = ask(
            &with_dialog,
            json!({"question": "Proceed?", "options": ["Yes", "No"], "timeout_s": 5}),
        )
        .await
        .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(answer["choice"], "No");

        let (alone, speaker) = tool(&[], None, false);
        let error = ask(
            &alone,
            json!({"question": "Proceed?", "options": ["Yes", "No"]}),
        )
        .await
        .err()
        .unwrap_or_else(|| panic!("answered without anyone to answer"));
        assert_eq!(error.error_type, ErrorType::NotFound);
        assert!(speaker.said().is_empty(), "asked nobody aloud");
    }

    #[tokio::test]
    async fn unmatched_answers_time_out_and_say_what_was_heard() {
        let (tool, _) = tool(&["purple", "red or green"], None, true);
        let started = Instant::now();
        let error = ask(
            &tool,
            json!({"question": "Which color?", "options": ["Red", "Green"], "timeout_s": 5}),
        )
        .await
        .err()
        .unwrap_or_else(|| panic!("chose without a clear answer"));
        assert_eq!(error.error_type, ErrorType::Timeout);
        assert!(
            error.message.contains("\"purple\", \"red or green\""),
            "{}",
            error.message
        );
        assert!(started.elapsed() < Duration::from_secs(7));
    }

    #[tokio::test]
    async fn options_that_differ_only_in_case_are_refused() {
        let (tool, _) = tool(&[], None, true);
        let error = ask(&tool, json!({"question": "?", "options": ["Yes", "yes"]}))
            .await
            .err()
            .unwrap_or_else(|| panic!("accepted"));
        assert_eq!(error.error_type, ErrorType::Validation);
    }
}
