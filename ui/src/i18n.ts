// zh-CN and en: the system locale picks one, the header's switch changes it (kept in
// localStorage). Every key exists in both languages (checked by i18n.test.ts).
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import "./api";

export const en = {
  app: { title: "Deskmate", language: "Language", nav: "Sections", offline: "Deskmate's service is not reachable" },
  nav: { chat: "Chat", tools: "Tools", schedules: "Schedules", mcp: "MCP", models: "Models", autotest: "Autotest", audit: "Audit" },
  common: {
    save: "Save", cancel: "Cancel", delete: "Delete", edit: "Edit", close: "Close", yes: "Yes", no: "No",
    loading: "Loading…", none: "None", all: "All", previous: "Previous", next: "Next",
    page: "Page {{page}} of {{pages}}", total: "{{count}} in total", error: "Error", ok: "OK",
    enabled: "Enabled", disabled: "Disabled", confirmDelete: "Delete {{name}}?", saved: "Saved",
  },
  chat: {
    placeholder: "Ask Deskmate… (Enter sends, Shift+Enter adds a line)", send: "Send", stop: "Stop",
    empty: "Ask for something: \"turn the volume up\", \"what's 17% of 2,340?\"",
    you: "You", assistant: "Deskmate", newChat: "New conversation", model: "Model", defaultModel: "Default model",
    arguments: "Arguments", repairs: "Repairs by the guard", result: "Result", running: "Running…",
    hint: "Hint", options: "Valid options", extracted: "Read from the reply's text ({{how}})",
    status: { done: "Done", failed: "Failed", compensated: "Undone", skipped: "Skipped", repeated: "Already done", not_asked: "Not run: not asked for" },
    details: "Details",
    talk: "Hold to talk", talkShortcut: "Push-to-talk: hold {{key}}", listening: "Listening…",
    transcribing: "Transcribing…", heard: "Heard: {{text}}", nothingHeard: "Nothing was heard",
    conversations: "Conversations", noConversations: "No conversation yet", rename: "Rename",
    renamePrompt: "Title", delete: "Delete", deleteConfirm: "Delete “{{title}}” and its messages?",
    untitled: "Untitled", loadFailed: "The conversation could not be opened: {{detail}}",
    repeatedNote: "{{tool}} was asked for again; it was already done, so it did not run twice.",
    reminder: "Reminder", thinking: "Thinking…", seconds: "{{count}} s", stopped: "Stopped. Nothing more of this turn runs.",
    guardWords: "What the guard told the model (English)",
  },
  errorType: {
    validation: "The arguments were not right", not_found: "Not found", permission: "Not allowed",
    transient: "Not available just now; it may work later", internal: "Something failed inside Deskmate",
    denied: "Refused", timeout: "Took too long and was stopped",
  },
  prompt: {
    confirmTitle: "Allow this call?", choiceTitle: "Choose one", tool: "Tool", why: "Why",
    approve: "Allow once", approveConversation: "Allow in this conversation", approveAlways: "Always allow this tool", approveAlwaysSure: "Yes, always allow it — its calls cannot be undone", deny: "Deny", expires: "Answer within {{seconds}} s", answered: "Answered",
  },
  tools: {
    filterCategory: "Category", filterEnabled: "Status", query: "Query", system: "System",
    builtIn: "Built-in", http: "HTTP tool", create: "New HTTP tool", detail: "Details", tryIt: "Try it",
    run: "Run", name: "Name", id: "Id", description: "Description", category: "Category", method: "Method",
    url: "URL", headers: "Headers", headerName: "Header", headerValue: "Value", addHeader: "Add header",
    timeout: "Timeout (ms)", schema: "Parameters (JSON Schema)", defaults: "Defaults (JSON)",
    approvals: "Approvals you gave", noApprovals: "None: calls that ask still ask.", approvedAlways: "Always allowed", approvedInConversation: "Allowed in conversation {{id}}", revoke: "Take back",
    policy: "Policy", policyDefault: "Default for its side effect", always: "Always run", ask: "Ask me first",
    never: "Never run", sideEffect: "Side effect", schemaValid: "Schema is valid",
    effect: { read: "read only", write: "changes something", irreversible: "cannot be undone" },
    secrets: "Secrets", secretName: "Name", secretValue: "Value", setSecret: "Set secret",
    storeKeyring: "Kept in the system keyring.", storeFile: "Kept in a file only you can read: no system keyring answered.",
    secretHelp: "Use a secret in a header as {secret:NAME}; its value is never shown again.",
    noTools: "No tool matches", created: "Created {{id}}", deleted: "Deleted {{id}}", select: "Select a tool",
    display: "Name and description in both languages (optional)",
    displayHelp: "What people read in each language of the window. The description above is what the model reads.",
    nameZh: "Name (Chinese)", nameEn: "Name (English)", descriptionZh: "Description (Chinese)", descriptionEn: "Description (English)",
    displayNeedsNames: "Give the name in both languages, or leave all four fields empty.",
  },
  models: {
    llm: "Language models (LLM)", asr: "Speech recognition (ASR)", add: "Add", name: "Name",
    baseUrl: "Base URL", model: "Model", apiKey: "API key", temperature: "Temperature", maxTokens: "Max tokens",
    language: "Language", hotwords: "Hotwords (comma separated)", isDefault: "Default", managed: "Local (managed)",
    testMessage: "Send test message", message: "Message", reply: "Reply", test: "Test", empty: "No model yet",
    testing: "Testing {{model}}", testAgain: "Test again", answered: "{{model}} answered in {{seconds}} s, at {{time}}",
    none: "No chat model", state: { starting: "Loading…", ready: "Ready", stopped: "Stopped", remote: "Remote" },
    stoppedHint: "The local model server is not running; its log is in the data folder's logs.",
  },
  autotest: {
    run: "Run autotest", running: "Running… {{done}} / {{total}}", testLlm: "Check the LLM", testAsr: "Check the ASR",
    testDevices: "Check the devices", results: "Results", history: "History", devices: "Device readiness",
    check: "Check", passed: "Passed", failed: "Failed", skipped: "Skipped", message: "Message", duration: "Time",
    summary: "{{passed}} passed, {{failed}} failed, {{skipped}} skipped, {{total}} total", noRuns: "No run yet", started: "Started",
    scope: "Checked", scopeLlm: "LLM", scopeAsr: "ASR", scopeTools: "tools", scopeDevices: "devices",
    junit: "Export JUnit XML", exported: "Saved {{file}}",
    compare: "Since the previous run", noPrevious: "No earlier run with the same checks to compare with.",
    noChanges: "No check changed status ({{unchanged}} unchanged).", changed: "{{count}} changed, {{unchanged}} unchanged",
    before: "Before", after: "Now", absent: "not checked",
  },
  audit: {
    tool: "Tool", outcome: "Outcome", since: "Since", time: "Time", duration: "Duration", origin: "From",
    error: "Error", ok: "ok", failed: "error", empty: "No call matches", refresh: "Refresh",
    details: "Details", result: "Result", repairs: "Repairs by the guard", noRepairs: "none",
    openConversation: "Open the conversation", truncated: "(cut: only the start of the result is kept)",
    origins: {
      api: "API", gui: "App window (try it)", llm: "Assistant", mcp: "MCP client", cli: "Command line",
      compensation: "Undo after a failed step", autotest: "Autotest", schedule: "Schedule",
    },
  },
  schedules: {
    new: "New schedule", edit: "Edit schedule", kinds: { reminder: "Reminder", tool: "Tool call", prompt: "Ask the assistant" },
    when: "When", whenExample: "in 10 minutes · tomorrow 9:00 · every weekday at 9",
    message: "Remind me of", speak: "Also say it out loud", tool: "Tool", prompt: "What to ask",
    create: "Add", created: "Added: {{rule}}, next {{next}}",
    what: "What", rule: "When", next: "Next", last: "Last run", enabled: "On",
    empty: "No reminders or scheduled calls yet", noMore: "no more", notYet: "not yet",
    remind: "Remind: {{message}}", call: "Call {{tool}}", ask: "Ask: {{prompt}}",
    status: { running: "Running", succeeded: "Done", failed: "Failed", missed: "Missed (Deskmate was not running)" },
  },
  repair: {
    parse_json_string: "arguments sent as a JSON string were read",
    empty_arguments: "empty arguments read as {}",
    strip_code_fence: "code fence removed",
    trailing_comma: "trailing comma removed",
    close_brackets: "missing brackets closed",
    trim: "spaces trimmed",
    enum_case: "letter case matched to an allowed value",
    strip_suffix: "suffix removed",
    scalar_to_list: "single value made a list",
    list_to_scalar: "one-item list made a single value",
    split_list: "text split into a list",
    dedupe: "duplicates removed",
    number_from_string: "number read from text",
    percent: "percentage read as a number",
    bool_from_string: "yes/no read from text",
    parse_nested_json: "nested JSON text read",
    all_keyword: "\"all\" expanded",
    drop_null: "empty value left out",
    key_case: "argument name's case fixed",
    default_value: "default filled in",
    extracted_from_content: "call read from the reply's text",
  },
  extractedHow: { "[TOOL_CALLS]": "a [TOOL_CALLS] marker", "<tool_call>": "a <tool_call> tag", "code fence": "a code block", "bare JSON": "plain JSON" },
  schemaCheck: {
    syntax: "Not valid JSON at line {{line}}, column {{column}}: “{{found}}” is not expected there",
    syntaxEnd: "Not valid JSON: the text ends too early (line {{line}}, column {{column}})",
    notObject: "The schema must be a JSON object: {…}",
    allowed: "Not an allowed value. Allowed: {{allowed}}",
    type: "Must be of type {{type}}",
    minimum: "Must be at least {{limit}}",
    minItems: "Must have at least {{limit}} items",
    uniqueItems: "Items must not repeat",
    format: "Must be a valid {{format}}",
    keyword: "Breaks the JSON Schema rule “{{keyword}}”",
    compile: "The schema cannot be compiled: {{detail}}",
    rootObject: "The root must have \"type\": \"object\"",
    propertiesObject: "\"properties\" must be an object",
    propertyName: "Property name “{{name}}”: use letters, digits and _, not starting with a digit",
    needsDescription: "Property “{{name}}” needs a description (the model reads it to fill the value)",
    requiredUndeclared: "“{{name}}” is required but is not a property",
  },
  mcp: {
    intro: "MCP servers whose tools Deskmate offers as <server>.<tool>, under its own checks: anything not read-only asks you first.",
    name: "Name", how: "Reached by", status: "Status", tools: "Tools", empty: "No MCP server yet",
    command: "Command (stdio)", url: "URL (Streamable HTTP)", args: "Arguments (one per line)",
    env: "Environment (KEY=value per line; kept as secrets)", headers: "Headers (Name: value per line; kept as secrets)",
    add: "Add a server", addButton: "Add server", import: "Import a Claude Desktop configuration",
    importLabel: "Paste {\"mcpServers\": {…}}", importButton: "Import", badJson: "Not valid JSON: {{message}}",
    running: "Running: {{count}} tools ({{protocol}})", failed: "Failed: {{reason}}",
    state: { starting: "Starting…", running: "Running", failed: "Failed", disabled: "Disabled" },
    changedTitle: "Tools of {{name}} changed", field: "Field", before: "Accepted", now: "Now", approve: "Approve the new definition",
    changedIntro: "These tools describe themselves differently than when you added the server. They stay disabled until you approve the new definition.",
  },
};

type Tree = { [key: string]: string | Tree };

export const zhCN: typeof en = {
  app: { title: "Deskmate 桌面助手", language: "语言", nav: "栏目", offline: "无法连接 Deskmate 服务" },
  nav: { chat: "对话", tools: "工具", schedules: "定时提醒", mcp: "MCP", models: "模型", autotest: "自动测试", audit: "审计日志" },
  common: {
    save: "保存", cancel: "取消", delete: "删除", edit: "编辑", close: "关闭", yes: "是", no: "否",
    loading: "加载中…", none: "无", all: "全部", previous: "上一页", next: "下一页",
    page: "第 {{page}} / {{pages}} 页", total: "共 {{count}} 项", error: "错误", ok: "成功",
    enabled: "已启用", disabled: "已停用", confirmDelete: "删除 {{name}}？", saved: "已保存",
  },
  chat: {
    placeholder: "问问 Deskmate…（Enter 发送，Shift+Enter 换行）", send: "发送", stop: "停止",
    empty: "试试：“调高音量”、“2,340 的 17% 是多少？”",
    you: "你", assistant: "Deskmate", newChat: "新对话", model: "模型", defaultModel: "默认模型",
    arguments: "参数", repairs: "守卫所做的修正", result: "结果", running: "执行中…",
    hint: "提示", options: "可选值", extracted: "从回复文本中读取（{{how}}）",
    status: { done: "完成", failed: "失败", compensated: "已撤销", skipped: "已跳过", repeated: "已做过", not_asked: "未执行：你没有要求" },
    details: "详情",
    talk: "按住说话", talkShortcut: "按住 {{key}} 说话", listening: "正在听…",
    transcribing: "正在识别…", heard: "听到：{{text}}", nothingHeard: "没有听到内容",
    conversations: "对话", noConversations: "还没有对话", rename: "重命名",
    renamePrompt: "标题", delete: "删除", deleteConfirm: "删除“{{title}}”及其全部消息？",
    untitled: "未命名", loadFailed: "无法打开该对话：{{detail}}",
    repeatedNote: "{{tool}} 被再次请求；它已经做过了，所以没有重复执行。",
    reminder: "提醒", thinking: "正在思考…", seconds: "{{count}} 秒", stopped: "已停止，这一轮不会再执行任何操作。",
    guardWords: "守卫给模型的说明（英文原文）",
  },
  errorType: {
    validation: "参数不符合要求", not_found: "找不到对象", permission: "不允许执行",
    transient: "暂时不可用，稍后可能成功", internal: "Deskmate 内部出错",
    denied: "已被拒绝", timeout: "超时，已停止",
  },
  prompt: {
    confirmTitle: "允许这次调用吗？", choiceTitle: "请选择", tool: "工具", why: "原因",
    approve: "仅允许这一次", approveConversation: "在本对话中允许", approveAlways: "始终允许此工具", approveAlwaysSure: "确定始终允许——它的操作无法撤销", deny: "拒绝", expires: "请在 {{seconds}} 秒内回答", answered: "已回答",
  },
  tools: {
    filterCategory: "类别", filterEnabled: "状态", query: "查询类", system: "系统类",
    builtIn: "内置", http: "HTTP 工具", create: "新建 HTTP 工具", detail: "详情", tryIt: "试用",
    run: "运行", name: "名称", id: "ID", description: "描述", category: "类别", method: "方法",
    url: "地址", headers: "请求头", headerName: "名称", headerValue: "值", addHeader: "添加请求头",
    timeout: "超时（毫秒）", schema: "参数（JSON Schema）", defaults: "默认参数（JSON）",
    approvals: "你给出的许可", noApprovals: "无：需要询问的调用仍会询问。", approvedAlways: "始终允许", approvedInConversation: "在对话 {{id}} 中允许", revoke: "收回",
    policy: "策略", policyDefault: "按副作用默认", always: "总是执行", ask: "先问我", never: "从不执行",
    sideEffect: "副作用", schemaValid: "Schema 有效",
    effect: { read: "只读", write: "会做出更改", irreversible: "无法撤销" },
    secrets: "密钥", secretName: "名称", secretValue: "值", setSecret: "设置密钥",
    storeKeyring: "保存在系统钥匙串中。", storeFile: "保存在仅你可读的文件中：没有可用的系统钥匙串。",
    secretHelp: "在请求头中以 {secret:名称} 引用密钥；保存后不再显示其值。",
    noTools: "没有匹配的工具", created: "已创建 {{id}}", deleted: "已删除 {{id}}", select: "请选择一个工具",
    display: "中英文名称和描述（可选）",
    displayHelp: "窗口在各语言下给人看的内容。上面的描述是模型读到的内容。",
    nameZh: "名称（中文）", nameEn: "名称（英文）", descriptionZh: "描述（中文）", descriptionEn: "描述（英文）",
    displayNeedsNames: "请填写中英文两个名称，或者四项都留空。",
  },
  models: {
    llm: "语言模型（LLM）", asr: "语音识别（ASR）", add: "添加", name: "名称",
    baseUrl: "接口地址", model: "模型", apiKey: "API 密钥", temperature: "温度", maxTokens: "最大 token 数",
    language: "语言", hotwords: "热词（逗号分隔）", isDefault: "默认", managed: "本地（托管）",
    testMessage: "发送测试消息", message: "消息", reply: "回复", test: "测试", empty: "还没有模型",
    testing: "正在测试 {{model}}", testAgain: "再测一次", answered: "{{model}} 用时 {{seconds}} 秒回答（{{time}}）",
    none: "没有对话模型", state: { starting: "正在加载…", ready: "就绪", stopped: "已停止", remote: "远程" },
    stoppedHint: "本地模型服务没有运行；日志在数据目录的 logs 文件夹中。",
  },
  autotest: {
    run: "运行自动测试", running: "运行中… {{done}} / {{total}}", testLlm: "测试 LLM", testAsr: "测试 ASR",
    testDevices: "检查设备", results: "结果", history: "历史", devices: "设备就绪情况",
    check: "检查项", passed: "通过", failed: "失败", skipped: "跳过", message: "信息", duration: "耗时",
    summary: "通过 {{passed}}，失败 {{failed}}，跳过 {{skipped}}，共 {{total}}", noRuns: "还没有运行记录", started: "开始时间",
    scope: "检查范围", scopeLlm: "LLM", scopeAsr: "ASR", scopeTools: "工具", scopeDevices: "设备",
    junit: "导出 JUnit XML", exported: "已保存 {{file}}",
    compare: "与上一次运行相比", noPrevious: "没有检查范围相同的更早运行可供比较。",
    noChanges: "没有检查项的状态发生变化（{{unchanged}} 项未变）。", changed: "{{count}} 项变化，{{unchanged}} 项未变",
    before: "之前", after: "现在", absent: "未检查",
  },
  audit: {
    tool: "工具", outcome: "结果", since: "起始时间", time: "时间", duration: "耗时", origin: "来源",
    error: "错误", ok: "成功", failed: "失败", empty: "没有匹配的调用", refresh: "刷新",
    details: "详情", result: "结果", repairs: "守卫所做的修正", noRepairs: "无",
    openConversation: "打开对应的对话", truncated: "（已截断：只保留结果的开头）",
    origins: {
      api: "API", gui: "应用窗口（试用）", llm: "助手", mcp: "MCP 客户端", cli: "命令行",
      compensation: "失败后的撤销", autotest: "自动测试", schedule: "定时任务",
    },
  },
  schedules: {
    new: "新建定时提醒", edit: "编辑定时任务", kinds: { reminder: "提醒", tool: "调用工具", prompt: "向助手提问" },
    when: "时间", whenExample: "10分钟后 · 明天早上9点 · 每个工作日9点",
    message: "提醒内容", speak: "同时大声说出来", tool: "工具", prompt: "要问的内容",
    create: "添加", created: "已添加：{{rule}}，下次 {{next}}",
    what: "内容", rule: "时间规则", next: "下次", last: "上次运行", enabled: "启用",
    empty: "还没有提醒或定时任务", noMore: "不再触发", notYet: "尚未运行",
    remind: "提醒：{{message}}", call: "调用 {{tool}}", ask: "提问：{{prompt}}",
    status: { running: "运行中", succeeded: "完成", failed: "失败", missed: "已错过（当时 Deskmate 未运行）" },
  },
  repair: {
    parse_json_string: "以 JSON 字符串发送的参数已解析",
    empty_arguments: "空参数按 {} 处理",
    strip_code_fence: "已去掉代码块标记",
    trailing_comma: "已去掉多余的逗号",
    close_brackets: "已补全缺失的括号",
    trim: "已去掉首尾空格",
    enum_case: "大小写已对齐到允许的值",
    strip_suffix: "已去掉后缀",
    scalar_to_list: "单个值已转为列表",
    list_to_scalar: "单元素列表已转为单个值",
    split_list: "文本已拆分为列表",
    dedupe: "已去重",
    number_from_string: "已从文本读出数字",
    percent: "百分数已转为数值",
    bool_from_string: "已从文本读出是/否",
    parse_nested_json: "已解析嵌套的 JSON 文本",
    all_keyword: "已展开 “all”",
    drop_null: "已省略空值",
    key_case: "参数名大小写已修正",
    default_value: "已填入默认值",
    extracted_from_content: "调用是从回复文本中读取的",
  },
  extractedHow: { "[TOOL_CALLS]": "[TOOL_CALLS] 标记", "<tool_call>": "<tool_call> 标签", "code fence": "代码块", "bare JSON": "纯 JSON" },
  schemaCheck: {
    syntax: "第 {{line}} 行第 {{column}} 列不是有效的 JSON：此处不应出现“{{found}}”",
    syntaxEnd: "不是有效的 JSON：文本提前结束（第 {{line}} 行第 {{column}} 列）",
    notObject: "Schema 必须是一个 JSON 对象：{…}",
    allowed: "不是允许的值。允许的值：{{allowed}}",
    type: "类型必须是 {{type}}",
    minimum: "不能小于 {{limit}}",
    minItems: "至少需要 {{limit}} 项",
    uniqueItems: "各项不能重复",
    format: "必须是有效的 {{format}}",
    keyword: "不符合 JSON Schema 的“{{keyword}}”规则",
    compile: "无法编译该 Schema：{{detail}}",
    rootObject: "根节点必须是 \"type\": \"object\"",
    propertiesObject: "\"properties\" 必须是对象",
    propertyName: "参数名“{{name}}”只能包含字母、数字和 _，且不能以数字开头",
    needsDescription: "参数“{{name}}”需要描述（模型靠它来填写参数值）",
    requiredUndeclared: "“{{name}}”被列为必填，但不是已声明的参数",
  },
  mcp: {
    intro: "Deskmate 以 <服务器>.<工具> 的名称提供这些 MCP 服务器的工具，并照常检查：非只读的工具会先征求你的同意。",
    name: "名称", how: "连接方式", status: "状态", tools: "工具", empty: "还没有 MCP 服务器",
    command: "命令（stdio）", url: "网址（Streamable HTTP）", args: "参数（每行一个）",
    env: "环境变量（每行 KEY=值；作为密钥保存）", headers: "请求头（每行 名称: 值；作为密钥保存）",
    add: "添加服务器", addButton: "添加", import: "导入 Claude Desktop 配置",
    importLabel: "粘贴 {\"mcpServers\": {…}}", importButton: "导入", badJson: "不是有效的 JSON：{{message}}",
    running: "运行中：{{count}} 个工具（{{protocol}}）", failed: "失败：{{reason}}",
    state: { starting: "正在启动…", running: "运行中", failed: "失败", disabled: "已停用" },
    changedTitle: "{{name}} 的工具有变化", field: "字段", before: "已认可", now: "现在", approve: "认可新的定义",
    changedIntro: "这些工具对自身的描述与添加服务器时不同。在你认可新的定义之前，它们保持停用。",
  },
};

export const LANGUAGES = [
  { code: "en", label: "English" },
  { code: "zh-CN", label: "简体中文" },
];

/** The saved choice, else the system locale (any zh → zh-CN), else English. */
export function initialLanguage(): string {
  const saved = localStorage.getItem("deskmate.language");
  if (saved && LANGUAGES.some((l) => l.code === saved)) return saved;
  const system = window.__DESKMATE__?.locale ?? navigator.languages?.[0] ?? navigator.language ?? "en";
  return system.toLowerCase().startsWith("zh") ? "zh-CN" : "en";
}

export function setLanguage(code: string) {
  localStorage.setItem("deskmate.language", code);
  void i18n.changeLanguage(code);
  document.documentElement.lang = code;
}

export function keys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === "string" ? [prefix + k] : keys(v, `${prefix}${k}.`),
  );
}

export function setupI18n() {
  const lng = initialLanguage();
  document.documentElement.lang = lng;
  return i18n.use(initReactI18next).init({
    resources: { en: { translation: en }, "zh-CN": { translation: zhCN } },
    lng,
    fallbackLng: "en",
    interpolation: { escapeValue: false },
  });
}
