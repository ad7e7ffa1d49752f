import { describe, expect, it } from "vitest";
import { ApiError } from "./api";
import { en, keys, zhCN } from "./i18n";
import { addError, anyStarting, fileRow, fileSize, modelNameOf, newFileModel, stateView } from "./modelFiles";

const file = { path: "/models/SmolLM2.gguf" };
const found = {
  path: "/models/SmolLM2-135M-Instruct.Q4_1.gguf",
  name: "SmolLM2-135M-Instruct.Q4_1.gguf",
  size_bytes: 99_000_000,
  architecture: "llama",
  context_length: 8192,
  chat_template: true,
  model_id: null,
  error: null,
};

describe("model files", () => {
  it("write sizes in MB below a gigabyte and in GB above", () => {
    expect(fileSize(99_000_000, "en")).toBe("99 MB");
    expect(fileSize(5_500_000, "en")).toBe("5.5 MB");
    expect(fileSize(1_120_000_000, "en")).toBe("1.1 GB");
    expect(fileSize(986_000_000, "zh-CN")).toBe("986 MB");
    expect(fileSize(12_340_000_000, "en")).toBe("12.3 GB");
    expect(fileSize(2_000, "en")).toBe("2 KB");
    expect(fileSize(12, "en")).toBe("12 B");
  });

  it("name a model after its file without .gguf", () => {
    expect(modelNameOf("/home/me/models/SmolLM2-135M-Instruct.Q4_1.gguf")).toBe("SmolLM2-135M-Instruct.Q4_1");
    expect(modelNameOf("C:\\models\\Qwen.GGUF")).toBe("Qwen");
    expect(modelNameOf(" /a/b/c.bin ")).toBe("c.bin");
    expect(newFileModel(" /m/x.gguf ")).toEqual({ name: "x", file: "/m/x.gguf" });
  });

  it("offer Add, say Added with the model, or say why not", () => {
    expect(fileRow(found)).toEqual({ kind: "add" });
    expect(fileRow({ ...found, model_id: "llm-1" })).toEqual({ kind: "added", modelId: "llm-1" });
    expect(fileRow({ ...found, error: "not a GGUF file" })).toEqual({ kind: "error", error: "not a GGUF file" });
  });

  it("tell a failed add by its first field error and hint", () => {
    const refused = new ApiError(422, "invalid", [
      { path: "/file", message: "no such file", hint: "check the path" },
      { path: "/name", message: "second" },
    ]);
    expect(addError(refused)).toEqual({ message: "no such file", hint: "check the path" });
    expect(addError(new ApiError(500, "boom"))).toEqual({ message: "boom", hint: null });
    expect(addError("dialog failed")).toEqual({ message: "dialog failed", hint: null });
  });
});

describe("model states", () => {
  it("read as a person understands them", () => {
    expect(stateView({ state: "starting", state_detail: "loading tensors 40%", file })).toEqual({
      label: "models.state.starting", tone: "running", detail: "loading tensors 40%", hint: null,
    });
    expect(stateView({ state: "ready", file })?.label).toBe("models.state.ready");
    expect(stateView({ state: "ready" })?.tone).toBe("done");
    // A model file not started yet is not a failure: it starts on first use.
    expect(stateView({ state: "stopped", state_detail: "its server starts when the model is first used", file })).toEqual({
      label: "models.state.notStarted", tone: "", detail: null, hint: "models.notStartedHint",
    });
    expect(stateView({ state: "stopped", state_detail: "exited" })).toEqual({
      label: "models.state.stopped", tone: "failed", detail: "exited", hint: "models.stoppedHint",
    });
    expect(stateView({ state: "failed", state_detail: "out of memory\nlog line", file })).toEqual({
      label: "models.state.failed", tone: "failed", detail: "out of memory\nlog line", hint: null,
    });
    expect(stateView({ state: "remote" })?.label).toBe("models.state.remote");
    expect(stateView({ state: null })).toBeNull();
  });

  it("are polled while one loads", () => {
    expect(anyStarting([{ state: "ready" }, { state: "starting" }])).toBe(true);
    expect(anyStarting([{ state: "ready" }, { state: "failed" }])).toBe(false);
  });

  it("have their texts in both languages", () => {
    const enKeys = new Set(keys(en));
    const zhKeys = new Set(keys(zhCN));
    const states = ["remote", "starting", "ready", "stopped", "failed"] as const;
    const used = states.flatMap((state) => {
      const view = [stateView({ state }), stateView({ state, file })];
      return view.flatMap((v) => (v ? [v.label, ...(v.hint ? [v.hint] : [])] : []));
    });
    expect(used.length).toBeGreaterThan(8);
    for (const key of used) {
      expect(enKeys.has(key), key).toBe(true);
      expect(zhKeys.has(key), key).toBe(true);
    }
    expect(zhCN.models.state.failed).not.toBe(en.models.state.failed);
    expect(zhCN.models.addFile).not.toBe(en.models.addFile);
  });
});
