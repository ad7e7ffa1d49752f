// Generated from ../openapi.json by `npm run api-types`: do not edit.

export interface paths {
    "/api/v1/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/approvals`. */
        get: operations["approvals_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** `DELETE /api/v1/approvals/{id}`: the tool asks again. */
        delete: operations["approvals_revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/audit`. */
        get: operations["audit_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/chat`. */
        post: operations["chat_chat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/conversations`: most recently used first, or searched with `q`. */
        get: operations["chat_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/conversations/import` → 201: a new conversation, all of it or nothing. */
        post: operations["chat_import"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * `GET /api/v1/conversations/{id}`: the conversation and its entries (user, assistant,
         *     tool cards) in order.
         */
        get: operations["chat_detail"];
        put?: never;
        post?: never;
        /** `DELETE /api/v1/conversations/{id}`: the conversation and its messages. */
        delete: operations["chat_delete"];
        options?: never;
        head?: never;
        /** `PATCH /api/v1/conversations/{id}`: renames it. */
        patch: operations["chat_rename"];
        trace?: never;
    };
    "/api/v1/conversations/{id}/branch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** `PUT /api/v1/conversations/{id}/branch`: shows another branch. */
        put: operations["chat_show_branch"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/conversations/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/conversations/{id}/export`. */
        get: operations["chat_export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices/camera/frame": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/devices/camera/frame`. */
        get: operations["devices_camera_frame"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/eval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/eval`: runs the suite; the report is stored (also when the client left). */
        post: operations["eval_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/eval/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/eval/runs`: stored evaluations, newest first, with their model and metrics. */
        get: operations["eval_runs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/eval/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/eval/runs/{id}`: one stored report, as JSON or as markdown. */
        get: operations["eval_run_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * `GET /api/v1/events`: SSE events `prompt` (a new prompt, as `/prompts` lists it),
         *     `message` (an in-app message: title, body, urgency) and `level` (`{db}`, while push
         *     to talk records). Events missed by a slow reader
         *     are skipped; `/prompts` always has the pending ones.
         */
        get: operations["devices_events"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/kb/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/kb/documents`. */
        get: operations["knowledge_list"];
        put?: never;
        /** `POST /api/v1/kb/documents` → 201. */
        post: operations["knowledge_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/kb/documents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/kb/documents/{id}`. */
        get: operations["knowledge_detail"];
        put?: never;
        post?: never;
        /** `DELETE /api/v1/kb/documents/{id}`. */
        delete: operations["knowledge_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/kb/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `POST /api/v1/kb/import`: imports the .md/.txt files of a folder.
         * @description Imports the text files of a folder on this machine. Whether the folder exists is not in the request: a well-formed path that names no readable folder gets a 422 at `/folder`.
         */
        post: operations["knowledge_import"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/kb/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/kb/search?q=…`. */
        get: operations["knowledge_search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `POST /api/v1/mcp/import`: a Claude Desktop configuration (`{"mcpServers": {…}}`);
         *     every server is added, or none.
         */
        post: operations["mcp_import"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp/servers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/mcp/servers`. */
        get: operations["mcp_list"];
        put?: never;
        /** `POST /api/v1/mcp/servers` → 201 with the stored server. */
        post: operations["mcp_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp/servers/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/mcp/servers/{name}`. */
        get: operations["mcp_detail"];
        /** `PUT /api/v1/mcp/servers/{name}`: the whole entry again. */
        put: operations["mcp_update"];
        post?: never;
        /** `DELETE /api/v1/mcp/servers/{name}`: the server, its secrets and its tools. */
        delete: operations["mcp_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mcp/servers/{name}/tools/{tool}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `POST /api/v1/mcp/servers/{name}/tools/{tool}/approve`: accepts the changed
         *     definition of an imported tool and enables it again.
         */
        post: operations["mcp_approve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/model-files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/model-files`. */
        get: operations["models_list_files"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models/asr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/models/asr`. */
        get: operations["models_list_asr"];
        put?: never;
        /** `POST /api/v1/models/asr` → 201. */
        post: operations["models_create_asr"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models/asr/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/models/asr/{id}`. */
        get: operations["models_get_asr"];
        /** `PUT /api/v1/models/asr/{id}`: changes the fields given. */
        put: operations["models_update_asr"];
        post?: never;
        /** `DELETE /api/v1/models/asr/{id}`. */
        delete: operations["models_delete_asr"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models/llm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/models/llm`. */
        get: operations["models_list_llm"];
        put?: never;
        /**
         * `POST /api/v1/models/llm` → 201.
         * @description A model served at `base_url`, or one Deskmate runs from a GGUF file on this computer (`file` instead of `base_url`). Whether a file can run is decided by the file and this computer, not by the request: a path that is well formed is refused with 422 at `/file` when nothing is there, it is a folder, it is not GGUF or cannot be read, it does not fit in free memory, or another model runs it.
         */
        post: operations["models_create_llm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/models/llm/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/models/llm/{id}`. */
        get: operations["models_get_llm"];
        /** `PUT /api/v1/models/llm/{id}`: changes the fields given. */
        put: operations["models_update_llm"];
        post?: never;
        /** `DELETE /api/v1/models/llm/{id}`. */
        delete: operations["models_delete_llm"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/openapi.json`. */
        get: operations["meta_document"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prompts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/prompts`. */
        get: operations["prompts_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/prompts/{id}/answer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `POST /api/v1/prompts/{id}/answer` with `{"approve": bool}`, `{"index": N}` or
         *     `{"choice": "text"}`.
         */
        post: operations["prompts_answer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/schedules`. */
        get: operations["schedules_list"];
        put?: never;
        /** `POST /api/v1/schedules` → 201. */
        post: operations["schedules_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/schedules/{id}`. */
        get: operations["schedules_detail"];
        /** `PUT /api/v1/schedules/{id}`: turns it on or off, or gives it a new time or action. */
        put: operations["schedules_update"];
        post?: never;
        /** `DELETE /api/v1/schedules/{id}`. */
        delete: operations["schedules_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/schedules/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/schedules/{id}/runs`. */
        get: operations["schedules_runs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * `GET /api/v1/secrets`: the names only, and where they are kept (the OS keyring, or
         *     the owner-only file and why).
         */
        get: operations["secrets_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** `PUT /api/v1/secrets/{name}` with `{"value": "…"}`. */
        put: operations["secrets_set"];
        post?: never;
        /** `DELETE /api/v1/secrets/{name}`. */
        delete: operations["secrets_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/settings`: every known setting with its value, default and description. */
        get: operations["settings_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settings/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** `PUT /api/v1/settings/{key}` with `{"value": …}`: applied to the tools at once. */
        put: operations["settings_set"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/autotest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/tools/autotest`: the LLM and ASR checks as asked, then every tool. */
        post: operations["autotest_run"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/autotest/asr/{model_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/tools/autotest/asr/{model_id}`. */
        post: operations["autotest_asr"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/autotest/llm/{model_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/tools/autotest/llm/{model_id}`. */
        post: operations["autotest_llm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/autotest/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/tools/autotest/runs`: stored runs, newest first. */
        get: operations["autotest_runs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/autotest/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/tools/autotest/runs/{id}`: one stored run's result, as JSON or JUnit XML. */
        get: operations["autotest_run_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/autotest/runs/{id}/compare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * `GET /api/v1/tools/autotest/runs/{id}/compare`: which checks changed status since the
         *     previous run of the same kind and scope (or since `?with=`).
         */
        get: operations["autotest_compare"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/call": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `POST /api/v1/tools/call`: one call through the guard; the answer is the result shape
         *     (HTTP 200 whether or not the call succeeded — `ok` says which).
         */
        post: operations["tools_call"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/tools/health` (no token needed). */
        get: operations["tools_health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/tools/list`: every enabled tool a model can call, built-in and user-defined. */
        get: operations["tools_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/list/{tool_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/tools/list/{tool_id}`. */
        get: operations["tools_detail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/tools/resources`. */
        get: operations["resources_list"];
        put?: never;
        /**
         * `POST /api/v1/tools/resources` → 201 with the stored resource.
         * @description Fields that depend on each other are checked beyond this schema (a JSON Schema cannot state it): every `{name}` placeholder of `http_url` must be a required or defaulted property of `parameter_schema`, and the defaults must satisfy it. A body valid by the schema can so still get a 422 naming the field.
         */
        post: operations["resources_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/resources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** `GET /api/v1/tools/resources/{id}`. */
        get: operations["resources_detail"];
        /**
         * `PUT /api/v1/tools/resources/{id}`.
         * @description Fields that depend on each other are checked beyond this schema (a JSON Schema cannot state it): every `{name}` placeholder of `http_url` must be a required or defaulted property of `parameter_schema`, and the defaults must satisfy it. A body valid by the schema can so still get a 422 naming the field.
         */
        put: operations["resources_update"];
        post?: never;
        /** `DELETE /api/v1/tools/resources/{id}`. */
        delete: operations["resources_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/test-message": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/tools/test-message`. */
        post: operations["autotest_test_message"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/voice/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/voice/cancel`. */
        post: operations["devices_cancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/voice/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/voice/start`. */
        post: operations["devices_start"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/voice/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** `POST /api/v1/voice/stop`. */
        post: operations["devices_stop"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description What a schedule does when it fires. */
        Action: {
            /** @enum {string} */
            kind: "reminder";
            /** @description What to remind of. */
            message: string;
            /** @description Also say it out loud. */
            speak: boolean;
        } | {
            /** @description Its arguments as the guard prepared them. */
            arguments: Record<string, never>;
            /** @enum {string} */
            kind: "tool";
            /** @description The tool's id. */
            tool: string;
        } | {
            /** @enum {string} */
            kind: "prompt";
            /** @description What to ask. */
            prompt: string;
        };
        /** @description A prompt that was answered. */
        Answered: {
            /** @description Always `true`: an answer that was not taken is an error answer. */
            answered: boolean;
            /** @description The prompt's id. */
            id: string;
        };
        ApiKey: string;
        /** @description One stored approval. */
        Approval: {
            /** @description The conversation, for a conversation's approval. */
            conversation_id?: string | null;
            /** @description RFC 3339. */
            created_at: string;
            /** @description The tool's definition it was given for. */
            fingerprint: string;
            /** @description Its id. */
            id: string;
            /** @description How far it reaches. */
            scope: components["schemas"]["ApprovalScope"];
            /** @description The tool it allows. */
            tool: string;
        };
        /**
         * @description How far an approval reaches.
         * @enum {string}
         */
        ApprovalScope: "always" | "conversation";
        /** @description The fields of an ASR model to change; the others keep their values. */
        AsrModelChange: {
            api_key?: null | components["schemas"]["ApiKey"];
            base_url?: components["schemas"]["BaseUrl"];
            hotwords?: components["schemas"]["Hotwords"];
            is_default?: boolean;
            language?: null | components["schemas"]["Language"];
            model?: components["schemas"]["ModelName"];
            name?: components["schemas"]["ModelTitle"];
        };
        /** @description An ASR (speech-to-text) model as the API shows it. */
        AsrModelView: {
            /** @description `••••` when a key is set, `null` when none is. */
            api_key?: string | null;
            /**
             * @description The OpenAI-style base URL; for a model Deskmate runs and is ready, where its
             *     server listens now.
             */
            base_url: string;
            /** @description RFC 3339. */
            created_at: string;
            /** @description Words the recognizer should expect. */
            hotwords: string[];
            /** @description The model's id. */
            id: string;
            /** @description Whether it is the default model. */
            is_default: boolean;
            /** @description The spoken language (ISO 639-1), `null` to let the server detect it. */
            language?: string | null;
            /** @description The program that runs it when Deskmate does, else `null`. */
            managed?: string | null;
            /** @description The model's name at its server. */
            model: string;
            /** @description The name shown in the app. */
            name: string;
            /** @description What its server is doing now. */
            state: components["schemas"]["ServingState"];
            /** @description Why a server Deskmate runs is stopped, else `null`. */
            state_detail?: string | null;
            /** @description RFC 3339. */
            updated_at: string;
        };
        /** @description One audit event: what was called, how it went, never a secret. */
        AuditEvent: {
            /** @description Arguments with secrets masked. */
            arguments: unknown;
            /** @description When it finished (RFC 3339, UTC). */
            at: string;
            /** @description The call. */
            call_id: string;
            /** @description The program behind that front end, as it named itself (an MCP client). */
            client?: string | null;
            /** @description The conversation the call belongs to, if any. */
            conversation_id?: string | null;
            /**
             * Format: int64
             * @description Wall-clock duration.
             */
            duration_ms: number;
            /** @description Why it failed. */
            error?: string | null;
            error_type?: null | components["schemas"]["ErrorType"];
            /** @description How to fix it (or what was cut from a long result). */
            hint?: string | null;
            /** @description The idempotency key, if any. */
            idem_key?: string | null;
            /** @description Whether the call succeeded. */
            ok: boolean;
            /** @description Which front end made the call. */
            origin: string;
            /** @description Repairs the guard made. */
            repairs: components["schemas"]["Repair"][];
            /** @description What it returned, capped by the writer. */
            result?: unknown;
            /** @description The tool id as resolved, or the name as asked when it did not resolve. */
            tool: string;
        };
        /** @description A run (the API contract's `AutotestResult`). */
        AutotestResult: {
            /**
             * Format: int64
             * @description Total time.
             */
            duration_ms: number;
            /** @description Run id. */
            id: string;
            /** @description What the run checked (runs stored before it was recorded: all false). */
            scope?: components["schemas"]["Scope"];
            /**
             * Format: double
             * @description Unix seconds.
             */
            started_at: number;
            /** @description Counts. */
            summary: components["schemas"]["Summary"];
            /**
             * @description The checks in their planned order (they run concurrently; the stream reports
             *     each as it finishes).
             */
            tests: components["schemas"]["TestCase"][];
        };
        BaseUrl: string;
        /** @description A message of the path shown that has siblings. */
        BranchPoint: {
            /** @description How many siblings there are (itself included). */
            count: number;
            /** @description Which of its siblings it is, from 1. */
            index: number;
            /**
             * Format: int64
             * @description The message shown (an entry's `seq`).
             */
            seq: number;
            /** @description The siblings' seqs, oldest first (show one with `PUT …/branch`). */
            siblings: number[];
        };
        /** @description The body of `POST /api/v1/tools/call`. */
        CallBody: {
            /** @description Object or JSON text. */
            arguments?: unknown;
            /**
             * @description The conversation the call belongs to: an id as Deskmate makes them (letters,
             *     digits, `-`, `_`; at most 64), so it can be named in a path again.
             */
            conversation_id?: string | null;
            /** @description Run at most once per key: 1 to 200 characters. */
            idem_key?: string | null;
            /**
             * @description Who asks, for the audit log: `gui` when the person tries a tool in the app's
             *     window, `api` (the default) for any other client.
             */
            origin?: components["schemas"]["CallOrigin"];
            /** @description Tool id (close spellings resolve). */
            tool: string;
        };
        /**
         * @description Who made a call over the API, as the audit log records it.
         * @enum {string}
         */
        CallOrigin: "api" | "gui";
        /** @description One call the model made, and what became of it. */
        CallRecord: {
            /** @description The arguments as the model wrote them. */
            arguments: string;
            /** @description The error, when it failed. */
            error?: string | null;
            error_type?: null | components["schemas"]["ErrorType"];
            /** @description How it was written when it came from the text. */
            extracted?: string | null;
            /** @description The tool as the model named it. */
            name: string;
            /** @description The arguments after the guard's normalization (defaults not added). */
            normalized?: unknown;
            /** @description The repairs the guard would make (rules). */
            repairs: components["schemas"]["RepairRule"][];
            /** @description How it ended: `done`, `failed`, `denied`, … (`None`: no result came back). */
            status?: string | null;
            /** @description Which model step of the turn made it (1-based). */
            step: number;
            /** @description The tool it resolves to among the offered ones (none: a hallucinated tool). */
            tool?: string | null;
            /** @description Exact tool id, strict JSON object, schema-valid without any repair. */
            valid_as_emitted: boolean;
            /** @description A write (changes something). */
            write: boolean;
        };
        /**
         * @description What a case tests.
         * @enum {string}
         */
        CaseCategory: "simple" | "multiple" | "parallel" | "parallel_multiple" | "irrelevance" | "malformed" | "error_recovery" | "atomicity";
        /** @description A case's outcome. */
        CaseResult: {
            /** @description Atomicity cases whose failure hit a group of writes: no partial state left. */
            atomic?: boolean | null;
            /** @description The same for a raw executor (no compensation, no skipping). */
            atomic_raw?: boolean | null;
            /** @description The calls, in the order made. */
            calls: components["schemas"]["CallRecord"][];
            /** @description Its category. */
            category: components["schemas"]["CaseCategory"];
            /** @description Whether the scripted failure happened. */
            failure_fired: boolean;
            /** @description A call to a tool not offered, or any call where none was wanted. */
            hallucinated: boolean;
            /** @description The case. */
            id: string;
            /** @description Its language. */
            lang: string;
            /**
             * Format: int64
             * @description The turn's time, all model requests and tool runs included.
             */
            latency_ms: number;
            /** @description Task success with the guard. */
            passed: boolean;
            /**
             * @description Task success for a plain OpenAI-tools client: raw, and no call read from free
             *     text.
             */
            passed_plain: boolean;
            /** @description Task success as a raw executor would have had it. */
            passed_raw: boolean;
            /** @description Why it failed. */
            reason?: string | null;
            /**
             * @description The tools of the calls the person was asked to confirm and refused (they had not
             *     asked for them): each is a wrong call.
             */
            refused: string[];
            /** @description What the assistant said. */
            reply: string;
            /**
             * @description Whether the reply made a claim the case says it must not make (`None`: the case
             *     names none).
             */
            reply_claims_avoided?: boolean | null;
            /** @description What the reply left out of those facts, or claimed against them. */
            reply_missing?: string | null;
            /**
             * @description Whether the reply stated every fact the case names for it and made none of the
             *     claims it names (`None`: the case names none). Judged apart from task success.
             */
            reply_states_facts?: boolean | null;
            /** @description Its part of the suite. */
            split: components["schemas"]["Split"];
            /** @description The case whose wordings it shares (its own id when it is no other's wording). */
            wording_group: string;
        };
        /** @description A check's name and message in Chinese (`name` and `message` are English). */
        CaseZh: {
            /** @description What was found, or what is wrong and how to fix it. */
            message: string;
            /** @description What was checked. */
            name: string;
        };
        /**
         * @description Which kind of tool a person may add: an HTTP query (the built-in tools are `system`).
         * @enum {string}
         */
        Category: "query";
        /** @description One row of the per-category table. */
        CategoryRow: {
            /** @description Cases. */
            cases: number;
            /** @description The category. */
            category: components["schemas"]["CaseCategory"];
            /**
             * Format: int64
             * @description Median turn time.
             */
            latency_p50_ms: number;
            /** @description Passed with the guard. */
            passed: number;
            /** @description Would have passed raw. */
            passed_raw: number;
        };
        /** @description One check whose status differs between two runs. */
        Change: {
            after?: null | components["schemas"]["Status"];
            before?: null | components["schemas"]["Status"];
            /** @description This run's message for it (the earlier run's when it is gone). */
            message: string;
            /** @description The check. */
            name: string;
            zh?: null | components["schemas"]["CaseZh"];
        };
        /**
         * @description An imported tool whose definition differs from the one accepted: it stays disabled
         *     until the person approves the new one.
         */
        ChangedTool: {
            /** @description SHA-256 (hex) of the new definition. */
            hash: string;
            /** @description Its id in Deskmate. */
            id: string;
            /** @description The definition the server gives now. */
            now: Record<string, never>;
            /** @description The definition accepted before (an MCP tool definition, as the server gave it). */
            pinned: Record<string, never>;
            /** @description The tool's name on its server. */
            tool: string;
        };
        /** @description A chat turn. */
        ChatBody: {
            /** @description The conversation to continue; a new one when absent. */
            conversation_id?: string | null;
            /**
             * Format: int64
             * @description Sends `message` in place of the person's earlier message with this seq: a new
             *     branch beside the old one, which stays (needs `conversation_id`).
             */
            edit_of?: number;
            /**
             * @description The locale of the client's window (`zh-CN`, `en`): the language of Deskmate's own
             *     lines when the message does not tell (a sum, a name). The message's own language
             *     comes first.
             */
            locale?: string | null;
            /** @description What the person said or typed. */
            message: string;
            /** @description The LLM model; the default model when absent. */
            model_id?: string | null;
            /**
             * Format: int64
             * @description A new reply to the person's message with this seq (its stored text is used): a
             *     sibling of the reply it had (needs `conversation_id`).
             */
            regenerate?: number;
        };
        /**
         * @description One entry of a conversation as the chat shows it. Its `seq` is the stored message it
         *     comes from (a tool card: the assistant message holding the call), the `seq` a search
         *     hit names.
         */
        ChatEntry: {
            /** @enum {string} */
            kind: "user";
            /**
             * Format: int64
             * @description The stored message's seq.
             */
            seq: number;
            /** @description The message. */
            text: string;
        } | {
            /** @enum {string} */
            kind: "assistant";
            /**
             * Format: int64
             * @description The stored message's seq.
             */
            seq: number;
            /** @description The reply. */
            text: string;
        } | {
            /** @enum {string} */
            kind: "reminder";
            /**
             * Format: int64
             * @description The stored message's seq.
             */
            seq: number;
            /** @description What it reminded of. */
            text: string;
        } | {
            /** @description The arguments as the model wrote them. */
            arguments: string;
            /** @description The call's id. */
            id: string;
            /** @enum {string} */
            kind: "tool";
            /** @description The tool as the model named it. */
            name: string;
            result?: null | components["schemas"]["ToolResult"];
            /**
             * Format: int64
             * @description The seq of the stored assistant message that holds the call.
             */
            seq: number;
            /** @description `done`, `failed`, `denied`, … (`None`: no result was saved). */
            status?: string | null;
            /** @description The one-line summary the card leads with. */
            summary?: string | null;
        } | {
            /**
             * Format: int64
             * @description The seq of the last message it covers.
             */
            covers_until_seq: number;
            /** @enum {string} */
            kind: "summary";
            /**
             * Format: int64
             * @description The seq of the last message it covers (it shows after that message's entry).
             */
            seq: number;
            /** @description The summary, in the conversation's language. */
            text: string;
        };
        /** @description A run against an earlier one. */
        Comparison: {
            /** @description The checks whose status changed, in this run's order (gone ones last). */
            changes: components["schemas"]["Change"][];
            /** @description The run it is compared with (`None`: there is no earlier run of its kind). */
            previous_id?: string | null;
            /** @description This run. */
            run_id: string;
            /** @description How many checks kept their status. */
            unchanged: number;
        };
        /** @description What a person is asked to confirm. */
        ConfirmRequest: {
            /** @description The arguments as they will run (secrets masked). */
            arguments: unknown;
            /** @description The call. */
            call_id: string;
            /**
             * @description The yeses this question takes: always `once`; `conversation` when the call is
             *     part of a conversation; `always` for a single call of a tool.
             */
            grants: components["schemas"]["Grant"][];
            /** @description Why the call needs confirming, in both languages (a person reads it in theirs). */
            reason: components["schemas"]["Localized"];
            /** @description Repairs the guard made. */
            repairs: components["schemas"]["Repair"][];
            /**
             * @description What the tool does to the world (an irreversible one is never allowed always
             *     without a second, explicit yes).
             */
            side_effect: components["schemas"]["SideEffect"];
            /** @description The tool id. */
            tool: string;
            /** @description The tool's display name, in both languages. */
            tool_name: components["schemas"]["Localized"];
        };
        /** @description How full the model's context was at a conversation's last turn, in tokens. */
        ContextUse: {
            /**
             * Format: int32
             * @description The system prompt: the instructions and the tool catalog.
             */
            catalog_tokens: number;
            /**
             * Format: int32
             * @description The conversation as sent: the summary of earlier turns, the recent turns and the
             *     new message.
             */
            conversation_tokens: number;
            /**
             * Format: int64
             * @description The seq of the last message folded into a summary (`None`: nothing folded).
             */
            folded_until_seq?: number | null;
            /**
             * Format: int32
             * @description The model's context size.
             */
            n_ctx: number;
        };
        /** @description A conversation. */
        Conversation: {
            /** @description RFC 3339. */
            created_at: string;
            /** @description Its id. */
            id: string;
            /** @description The model it last used. */
            model_id?: string | null;
            /** @description A title (the first user message, shortened). */
            title: string;
            /** @description RFC 3339. */
            updated_at: string;
        };
        /** @description A conversation with its entries. */
        ConversationDetail: components["schemas"]["Conversation"] & {
            /** @description The messages shown that have siblings (edits, regenerated replies). */
            branches: components["schemas"]["BranchPoint"][];
            context?: null | components["schemas"]["ContextUse"];
            /** @description What the chat shows, in order. */
            entries: components["schemas"]["ChatEntry"][];
        };
        /** @description A conversation in JSON: the API's own shapes, importable again. */
        ConversationExport: {
            /** @description Always `deskmate.conversation`. */
            format: string;
            /**
             * Format: int64
             * @description The last message shown (its seq); the last message when absent.
             */
            head?: number | null;
            /** @description The messages, each after its parent. */
            messages: components["schemas"]["ExportedMessage"][];
            /** @description The model it last used. */
            model_id?: string | null;
            /** @description The title. */
            title: string;
            /**
             * Format: int32
             * @description Always 1.
             */
            version: number;
        };
        /** @description One place a search found its words: a conversation's title or one of its entries. */
        ConversationHit: {
            /** @description The conversation's id. */
            conversation_id: string;
            /** @description What the words were found in. */
            kind: components["schemas"]["HitKind"];
            /**
             * Format: int64
             * @description The entry found, as the `seq` of the conversation's entries (a tool card: the
             *     assistant message holding the call); null when the title was found.
             */
            seq?: number | null;
            /**
             * @description The text around the first word found, on one line, at most 120 characters (`…`
             *     where it was cut).
             */
            snippet: string;
            /** @description Its title. */
            title: string;
            /** @description When it was last used (RFC 3339). */
            updated_at: string;
        };
        /** @description Without `q`: the conversations (`{list}`). With `q`: one page of hits (`{total, page, limit, list}`). */
        ConversationListing: {
            /** @description The items. */
            list: components["schemas"]["Conversation"][];
        } | {
            /**
             * Format: int32
             * @description Most items a page holds.
             */
            limit: number;
            /** @description The items of this page. */
            list: components["schemas"]["ConversationHit"][];
            /**
             * Format: int32
             * @description This page's number, from 1.
             */
            page: number;
            /**
             * Format: int64
             * @description How many items the whole list has.
             */
            total: number;
        };
        /** @description What was deleted, by id. */
        Deleted: {
            /** @description Always `true`: a deletion that did not happen is an error answer. */
            deleted: boolean;
            /** @description The id of what was deleted. */
            id: string;
        };
        /** @description A document that was deleted. */
        DeletedDocument: {
            /** @description Always `true`: a document that does not exist is a 404. */
            deleted: boolean;
            /**
             * Format: int64
             * @description The document's id.
             */
            id: number;
        };
        /** @description What was deleted, by name. */
        DeletedServer: {
            /** @description Always `true`: a deletion that did not happen is an error answer. */
            deleted: boolean;
            /** @description The server's name. */
            name: string;
        };
        /** @description A tool's name and one-sentence description for people, in zh-CN and en. */
        DisplayInput: {
            description: components["schemas"]["DisplayText"];
            name: components["schemas"]["DisplayName"];
        };
        /** @description A display name in both languages: 1–100 characters each, not only spaces. */
        DisplayName: {
            en: string;
            zh: string;
        };
        /** @description A sentence in both languages, at most 1,000 characters each. */
        DisplayText: {
            en: string;
            zh: string;
        };
        /** @description The body of every error answer. */
        ErrorBody: {
            /** @description What went wrong, in one sentence. */
            detail: string;
            /** @description For a 422: one entry per problem, at a JSON pointer into the request body. */
            errors?: components["schemas"]["FieldError"][] | null;
            /** @description How to fix it. */
            hint?: string | null;
        };
        /**
         * @description Why a call did not succeed. The set is closed: a model and a GUI can act on each kind.
         *
         *     Decision (a design choice): `denied` and `timeout` are kept as their own
         *     kinds rather than folded into `permission` and `transient`, because the right next
         *     step differs — a denied call must not be retried without asking the person, a timed
         *     out call may be retried with a smaller request.
         * @enum {string}
         */
        ErrorType: "validation" | "not_found" | "permission" | "transient" | "internal" | "denied" | "timeout";
        /** @description A finished evaluation and its report as markdown. */
        EvalAnswer: components["schemas"]["EvalReport"] & {
            /** @description The report as markdown: the metrics, then a table per category. */
            markdown: string;
        };
        /** @description What to evaluate. */
        EvalBody: {
            /** @description Offer every enabled tool in every case, as a chat turn does (default false). */
            all_tools?: boolean | null;
            /**
             * Format: int64
             * @description Longest turn per case in seconds (1–600, default 180).
             */
            case_timeout_s?: number | null;
            /** @description Only these categories. */
            categories?: string[] | null;
            /** @description At most this many cases (1–1000). */
            limit?: number | null;
            /**
             * Format: int64
             * @description Most tokens per model answer (16–4096, default 256).
             */
            max_tokens?: number | null;
            /** @description The LLM model id. */
            model_id: string;
            /** @description Only the cases of these parts of the suite (`dev`, `heldout`); all when absent. */
            splits?: string[] | null;
            /** @description A suite as JSONL text (docs/EVAL.md); the bundled suite when absent. */
            suite?: string | null;
        };
        /** @description The model under evaluation, as the user's service has it. */
        EvalModel: {
            /** @description Where its server listens now. */
            base_url: string;
            /** @description Its id in the user's service. */
            id: string;
            /**
             * Format: int64
             * @description Most tokens per answer.
             */
            max_tokens: number;
            /** @description The name the server knows. */
            model: string;
            /** @description Display name. */
            name: string;
            /** @description Streamed answers. */
            streaming: boolean;
            /**
             * Format: double
             * @description Sampling as configured.
             */
            temperature: number;
            /**
             * Format: double
             * @description Nucleus sampling as configured.
             */
            top_p: number;
        };
        /** @description A finished evaluation. */
        EvalReport: {
            /** @description Per category. */
            by_category: components["schemas"]["CategoryRow"][];
            /**
             * @description The same per part of the suite (dev, heldout) that has cases: only heldout counts
             *     toward a target.
             */
            by_split: components["schemas"]["SplitReport"][];
            /**
             * Format: int64
             * @description Total time.
             */
            duration_ms: number;
            /** @description Run id. */
            id: string;
            /** @description The metrics. */
            metrics: components["schemas"]["Metrics"];
            /** @description The model. */
            model: components["schemas"]["EvalModel"];
            /** @description Every case. */
            results: components["schemas"]["CaseResult"][];
            /**
             * Format: double
             * @description Unix seconds.
             */
            started_at: number;
            /** @description The suite's name. */
            suite: string;
        };
        /** @description One message of an export. */
        ExportedMessage: {
            /**
             * @description The message as the model reads it (`role`, `content`, `tool_calls`, …), with the
             *     chat's card under `deskmate`.
             */
            message: Record<string, never>;
            /**
             * Format: int64
             * @description The message before it in its branch (an earlier message of the export), or
             *     `null` for a first message.
             */
            parent?: number | null;
            /**
             * Format: int64
             * @description Its seq in the export (unique).
             */
            seq: number;
        };
        /** @description One problem with a resource, at a JSON pointer into the request body. */
        FieldError: {
            /** @description How to fix it. */
            hint: string;
            /** @description What is wrong. */
            message: string;
            /** @description Where (`/http_url`, `/parameter_defaults/days`). */
            path: string;
        };
        /** @description A `.gguf` file found in a models folder. */
        FoundFile: {
            /** @description The architecture its header names (`llama`, `qwen2`, …). */
            architecture?: string | null;
            /** @description Whether it carries its own chat template. */
            chat_template: boolean;
            /**
             * Format: int64
             * @description The context it was trained for, in tokens.
             */
            context_length?: number | null;
            /** @description Why it cannot be added (not GGUF, unreadable), else `null`. */
            error?: string | null;
            /** @description The model that runs it already, else `null`. */
            model_id?: string | null;
            /** @description Its file name. */
            name: string;
            /** @description Its absolute path (what `file` of a new model takes). */
            path: string;
            /**
             * Format: int64
             * @description Its size in bytes (0 when it cannot be read).
             */
            size_bytes: number;
        };
        /**
         * @description How far a yes reaches.
         * @enum {string}
         */
        Grant: "once" | "conversation" | "always";
        /** @description Whether the API answers, and the ids of the tools it can call. */
        Health: {
            /** @description Always `healthy`. */
            status: string;
            /**
             * Format: double
             * @description Unix seconds.
             */
            timestamp: number;
            /** @description The ids of the enabled tools. */
            tools: string[];
        };
        /**
         * @description What a hit was found in.
         * @enum {string}
         */
        HitKind: "title" | "user" | "assistant" | "tool" | "reminder";
        Hotwords: string[];
        /** @description An import request: a folder on this computer. */
        Import: {
            /** @description A folder on this computer. */
            folder: string;
            /** @description Knowledge base id: 1-64 letters, digits, `_` or `-`. */
            kb_id: string;
        };
        /** @description What importing a folder did. */
        ImportReport: {
            /** @description Documents added or replaced. */
            imported: components["schemas"]["KbDocument"][];
            /** @description Files left out, with why. */
            skipped: components["schemas"]["Skipped"][];
        };
        /** @description A list without a count (the client shows it as it comes). */
        Items_Approval: {
            /** @description The items. */
            list: {
                /** @description The conversation, for a conversation's approval. */
                conversation_id?: string | null;
                /** @description RFC 3339. */
                created_at: string;
                /** @description The tool's definition it was given for. */
                fingerprint: string;
                /** @description Its id. */
                id: string;
                /** @description How far it reaches. */
                scope: components["schemas"]["ApprovalScope"];
                /** @description The tool it allows. */
                tool: string;
            }[];
        };
        /** @description A list without a count (the client shows it as it comes). */
        Items_Prompt: {
            /** @description The items. */
            list: {
                call?: null | components["schemas"]["ConfirmRequest"];
                /**
                 * Format: double
                 * @description Unix seconds.
                 */
                created_at: number;
                /**
                 * Format: double
                 * @description Unix seconds; no answer by then means no.
                 */
                expires_at: number;
                /** @description Prompt id (answer with `POST /api/v1/prompts/{id}/answer`). */
                id: string;
                /** @description Confirm a call, or pick one option. */
                kind: components["schemas"]["PromptKind"];
                /** @description The options of a choice. */
                options: string[];
                /** @description The question or the reason for the confirmation. */
                question: string;
            }[];
        };
        /** @description A stored document. */
        KbDocument: {
            /** @description Full text. */
            body: string;
            /** @description RFC 3339. */
            created_at: string;
            /**
             * Format: int64
             * @description Row id.
             */
            id: number;
            /** @description The knowledge base it belongs to. */
            kb_id: string;
            /** @description Where it came from (an imported file name), if anywhere. */
            source?: string | null;
            /** @description Title. */
            title: string;
        };
        /** @description One search hit. */
        KbHit: {
            /**
             * Format: int64
             * @description Document id.
             */
            id: number;
            /** @description Its knowledge base. */
            kb_id: string;
            /**
             * Format: double
             * @description BM25 relevance, higher is better.
             */
            score: number;
            /** @description The passage around the first match. */
            snippet: string;
            /** @description Its title. */
            title: string;
        };
        /** @enum {string} */
        Language: "af" | "am" | "ar" | "as" | "az" | "ba" | "be" | "bg" | "bn" | "bo" | "br" | "bs" | "ca" | "cs" | "cy" | "da" | "de" | "el" | "en" | "es" | "et" | "eu" | "fa" | "fi" | "fo" | "fr" | "gl" | "gu" | "ha" | "he" | "hi" | "hr" | "ht" | "hu" | "hy" | "id" | "is" | "it" | "ja" | "jw" | "ka" | "kk" | "km" | "kn" | "ko" | "la" | "lb" | "ln" | "lo" | "lt" | "lv" | "mg" | "mi" | "mk" | "ml" | "mn" | "mr" | "ms" | "mt" | "my" | "ne" | "nl" | "nn" | "no" | "oc" | "pa" | "pl" | "ps" | "pt" | "ro" | "ru" | "sa" | "sd" | "si" | "sk" | "sl" | "sn" | "so" | "sq" | "sr" | "su" | "sv" | "sw" | "ta" | "te" | "tg" | "th" | "tk" | "tl" | "tr" | "tt" | "uk" | "ur" | "uz" | "vi" | "yi" | "yo" | "zh" | "yue" | "haw";
        /** @description A whole list and its length. */
        Listed_AsrModelView: {
            /** @description The items. */
            list: {
                /** @description `••••` when a key is set, `null` when none is. */
                api_key?: string | null;
                /**
                 * @description The OpenAI-style base URL; for a model Deskmate runs and is ready, where its
                 *     server listens now.
                 */
                base_url: string;
                /** @description RFC 3339. */
                created_at: string;
                /** @description Words the recognizer should expect. */
                hotwords: string[];
                /** @description The model's id. */
                id: string;
                /** @description Whether it is the default model. */
                is_default: boolean;
                /** @description The spoken language (ISO 639-1), `null` to let the server detect it. */
                language?: string | null;
                /** @description The program that runs it when Deskmate does, else `null`. */
                managed?: string | null;
                /** @description The model's name at its server. */
                model: string;
                /** @description The name shown in the app. */
                name: string;
                /** @description What its server is doing now. */
                state: components["schemas"]["ServingState"];
                /** @description Why a server Deskmate runs is stopped, else `null`. */
                state_detail?: string | null;
                /** @description RFC 3339. */
                updated_at: string;
            }[];
            /** @description How many items `list` has. */
            total: number;
        };
        /** @description A whole list and its length. */
        Listed_FoundFile: {
            /** @description The items. */
            list: {
                /** @description The architecture its header names (`llama`, `qwen2`, …). */
                architecture?: string | null;
                /** @description Whether it carries its own chat template. */
                chat_template: boolean;
                /**
                 * Format: int64
                 * @description The context it was trained for, in tokens.
                 */
                context_length?: number | null;
                /** @description Why it cannot be added (not GGUF, unreadable), else `null`. */
                error?: string | null;
                /** @description The model that runs it already, else `null`. */
                model_id?: string | null;
                /** @description Its file name. */
                name: string;
                /** @description Its absolute path (what `file` of a new model takes). */
                path: string;
                /**
                 * Format: int64
                 * @description Its size in bytes (0 when it cannot be read).
                 */
                size_bytes: number;
            }[];
            /** @description How many items `list` has. */
            total: number;
        };
        /** @description A whole list and its length. */
        Listed_LlmModelView: {
            /** @description The items. */
            list: {
                /** @description `••••` when a key is set, `null` when none is. */
                api_key?: string | null;
                /**
                 * @description The OpenAI-style base URL; for a model Deskmate runs and is ready, where its
                 *     server listens now.
                 */
                base_url: string;
                /** @description RFC 3339. */
                created_at: string;
                file?: null | components["schemas"]["ModelFileView"];
                /** @description The model's id. */
                id: string;
                /** @description Whether it is the default model. */
                is_default: boolean;
                /** @description The program that runs it when Deskmate does (`llama-server`), else `null`. */
                managed?: string | null;
                /**
                 * Format: int64
                 * @description Most tokens of a reply.
                 */
                max_tokens: number;
                /** @description The model's name at its server. */
                model: string;
                /** @description The name shown in the app. */
                name: string;
                /** @description What its server is doing now. */
                state: components["schemas"]["ServingState"];
                /**
                 * @description Why a server Deskmate runs is stopped or failed, or what a loading one is doing;
                 *     else `null`.
                 */
                state_detail?: string | null;
                /** @description Whether replies are streamed. */
                streaming: boolean;
                /**
                 * Format: double
                 * @description Sampling temperature.
                 */
                temperature: number;
                /**
                 * Format: double
                 * @description Nucleus sampling.
                 */
                top_p: number;
                /** @description RFC 3339. */
                updated_at: string;
            }[];
            /** @description How many items `list` has. */
            total: number;
        };
        /** @description A whole list and its length. */
        Listed_McpServerView: {
            /** @description The items. */
            list: {
                /** @description The program's arguments. */
                args?: string[];
                /**
                 * @description Its tools whose definitions changed since they were accepted (disabled until
                 *     approved).
                 */
                changed: components["schemas"]["ChangedTool"][];
                /** @description The program started to speak MCP over stdio. */
                command?: string;
                /** @description RFC 3339. */
                created_at: string;
                /** @description Whether Deskmate connects to it. */
                enabled: boolean;
                /** @description The program's environment variables, each value read back as `••••`. */
                env?: {
                    [key: string]: string;
                };
                /** @description The HTTP headers sent to it, each value read back as `••••`. */
                headers?: {
                    [key: string]: string;
                };
                /** @description Its name (the prefix of its tools' ids). */
                name: string;
                /** @description What it is doing now. */
                status: components["schemas"]["McpStatus"];
                /** @description The ids of its tools in the registry. */
                tools: string[];
                /** @description RFC 3339. */
                updated_at: string;
                /** @description The server's URL (Streamable HTTP). */
                url?: string;
            }[];
            /** @description How many items `list` has. */
            total: number;
        };
        /** @description The fields of an LLM model to change; the others keep their values. */
        LlmModelChange: {
            api_key?: null | components["schemas"]["ApiKey"];
            base_url?: components["schemas"]["BaseUrl"];
            /**
             * Format: int64
             * @description For a model run from a file: the context size in tokens (its server restarts).
             */
            context_size?: number;
            is_default?: boolean;
            /** Format: int64 */
            max_tokens?: number;
            model?: components["schemas"]["ModelName"];
            name?: components["schemas"]["ModelTitle"];
            streaming?: boolean;
            /** Format: double */
            temperature?: number;
            /**
             * Format: int64
             * @description For a model run from a file: CPU threads (its server restarts).
             */
            threads?: number;
            /** Format: double */
            top_p?: number;
        };
        /** @description An LLM model as the API shows it. */
        LlmModelView: {
            /** @description `••••` when a key is set, `null` when none is. */
            api_key?: string | null;
            /**
             * @description The OpenAI-style base URL; for a model Deskmate runs and is ready, where its
             *     server listens now.
             */
            base_url: string;
            /** @description RFC 3339. */
            created_at: string;
            file?: null | components["schemas"]["ModelFileView"];
            /** @description The model's id. */
            id: string;
            /** @description Whether it is the default model. */
            is_default: boolean;
            /** @description The program that runs it when Deskmate does (`llama-server`), else `null`. */
            managed?: string | null;
            /**
             * Format: int64
             * @description Most tokens of a reply.
             */
            max_tokens: number;
            /** @description The model's name at its server. */
            model: string;
            /** @description The name shown in the app. */
            name: string;
            /** @description What its server is doing now. */
            state: components["schemas"]["ServingState"];
            /**
             * @description Why a server Deskmate runs is stopped or failed, or what a loading one is doing;
             *     else `null`.
             */
            state_detail?: string | null;
            /** @description Whether replies are streamed. */
            streaming: boolean;
            /**
             * Format: double
             * @description Sampling temperature.
             */
            temperature: number;
            /**
             * Format: double
             * @description Nucleus sampling.
             */
            top_p: number;
            /** @description RFC 3339. */
            updated_at: string;
        };
        /** @description A display string in both user-facing languages. */
        Localized: {
            /** @description English. */
            en: string;
            /** @description Simplified Chinese. */
            zh: string;
        };
        McpImport: {
            mcpServers: {
                [key: string]: {
                    args?: string[] | null;
                    /** @description e.g. npx */
                    command: string;
                    /** @description Claude Desktop's switch: true adds the server disabled (unless `enabled` is given); other values are ignored */
                    disabled?: unknown;
                    /** @description Start it with the app (default true) */
                    enabled?: boolean | null;
                    /** @description Environment variables, kept as secrets */
                    env?: {
                        [key: string]: string;
                    } | null;
                    headers?: null;
                    /** @description Ignored: the entry's key names it */
                    name?: unknown;
                    /** @description Claude Desktop's transport; ignored */
                    type?: unknown;
                    url?: null;
                } | {
                    args?: null;
                    command?: null;
                    /** @description Claude Desktop's switch: true adds the server disabled (unless `enabled` is given); other values are ignored */
                    disabled?: unknown;
                    /** @description Start it with the app (default true) */
                    enabled?: boolean | null;
                    env?: null;
                    /** @description Headers sent with every request, kept as secrets */
                    headers?: {
                        [key: string]: string;
                    } | null;
                    /** @description Ignored: the entry's key names it */
                    name?: unknown;
                    /** @description Claude Desktop's transport; ignored */
                    type?: unknown;
                    /** @description e.g. http://127.0.0.1:3000/mcp */
                    url: string;
                };
            };
        };
        McpServerChange: {
            args?: string[] | null;
            /** @description e.g. npx */
            command: string;
            /** @description Start it with the app (default true) */
            enabled?: boolean | null;
            /** @description Environment variables, kept as secrets */
            env?: {
                [key: string]: string;
            } | null;
            headers?: null;
            url?: null;
        } | {
            args?: null;
            command?: null;
            /** @description Start it with the app (default true) */
            enabled?: boolean | null;
            env?: null;
            /** @description Headers sent with every request, kept as secrets */
            headers?: {
                [key: string]: string;
            } | null;
            /** @description e.g. http://127.0.0.1:3000/mcp */
            url: string;
        };
        /**
         * @description An MCP server as the API shows it. A server started as a program has `command`,
         *     `args` and `env`; one reached over HTTP has `url` and `headers`.
         */
        McpServerView: {
            /** @description The program's arguments. */
            args?: string[];
            /**
             * @description Its tools whose definitions changed since they were accepted (disabled until
             *     approved).
             */
            changed: components["schemas"]["ChangedTool"][];
            /** @description The program started to speak MCP over stdio. */
            command?: string;
            /** @description RFC 3339. */
            created_at: string;
            /** @description Whether Deskmate connects to it. */
            enabled: boolean;
            /** @description The program's environment variables, each value read back as `••••`. */
            env?: {
                [key: string]: string;
            };
            /** @description The HTTP headers sent to it, each value read back as `••••`. */
            headers?: {
                [key: string]: string;
            };
            /** @description Its name (the prefix of its tools' ids). */
            name: string;
            /** @description What it is doing now. */
            status: components["schemas"]["McpStatus"];
            /** @description The ids of its tools in the registry. */
            tools: string[];
            /** @description RFC 3339. */
            updated_at: string;
            /** @description The server's URL (Streamable HTTP). */
            url?: string;
        };
        /** @description What a server is doing now. */
        McpStatus: {
            /** @enum {string} */
            state: "starting";
        } | {
            /** @description The protocol revision spoken. */
            protocol: string;
            /** @enum {string} */
            state: "running";
            /** @description How many tools it gave. */
            tools: number;
        } | {
            /** @description What went wrong. */
            reason: string;
            /** @enum {string} */
            state: "failed";
        } | {
            /** @enum {string} */
            state: "disabled";
        };
        /** @description The metrics. */
        Metrics: {
            /** @description Atomicity cases where the failure hit a group of writes. */
            atomicity_measured: number;
            /** @description Calls the model made. */
            calls: number;
            /**
             * Format: double
             * @description Error-recovery cases passed (`None`: no such case).
             */
            error_recovery?: number | null;
            /**
             * Format: double
             * @description `task_success - task_success_raw`, in percentage points.
             */
            guard_lift_points: number;
            /** @description Calls to tools not offered. */
            hallucinated_calls: number;
            /**
             * Format: double
             * @description Cases with a call to a tool not offered, or any call where none fits.
             */
            hallucination_rate: number;
            /**
             * Format: int64
             * @description Median turn time.
             */
            latency_p50_ms: number;
            /**
             * Format: int64
             * @description 95th percentile turn time.
             */
            latency_p95_ms: number;
            /**
             * Format: double
             * @description The evaluator's weighted score (a missing metric counts as 0).
             */
            overall: number;
            /**
             * Format: double
             * @description Atomicity cases whose failure hit a group of writes and left no partial state
             *     (`None`: no case got that far).
             */
            parallel_atomicity?: number | null;
            /**
             * Format: double
             * @description The same for a raw executor (no compensation, no skipping).
             */
            parallel_atomicity_raw?: number | null;
            /** @description Calls the simulated person was asked to confirm and refused. */
            refused_calls: number;
            /** @description Of those, the replies that made one of the claims. */
            replies_claiming_avoided: number;
            /** @description Cases that name facts their reply must state (or claims it must not make). */
            replies_judged: number;
            /** @description Of those, the replies that stated every fact and made none of the claims. */
            replies_stating_facts: number;
            /**
             * @description Cases that name claims their reply must not make (a value no result carried, a
             *     stand-in's "done").
             */
            replies_with_avoids: number;
            /**
             * Format: double
             * @description Calls to offered tools that were valid as emitted, of all such calls (`None`:
             *     no such call, so a model that never calls a tool does not score on it).
             */
            schema_compliance?: number | null;
            /**
             * Format: double
             * @description Cases passed with the guard.
             */
            task_success: number;
            /**
             * Format: double
             * @description Cases a plain OpenAI-tools client would have passed: raw, and no call read
             *     from free text.
             */
            task_success_plain: number;
            /**
             * Format: double
             * @description Cases that would have passed with raw execution (calls valid as emitted only).
             */
            task_success_raw: number;
            /** @description Cases with other wordings (each counted once, with all its wordings run). */
            wording_groups: number;
            /**
             * @description Of those, the ones whose every wording got the same tools (the same tools as many
             *     times, in any order).
             */
            wording_groups_same_tools: number;
        };
        ModelFilePath: string;
        /** @description How Deskmate runs a model from a person's own GGUF file. */
        ModelFileView: {
            /**
             * Format: int64
             * @description The context size in tokens.
             */
            context_size: number;
            /** @description The file's absolute path. */
            path: string;
            /**
             * Format: int64
             * @description CPU threads.
             */
            threads: number;
        };
        ModelId: string;
        ModelName: string;
        ModelTitle: string;
        /** @description An ASR (speech-to-text) model to add. */
        NewAsrModel: {
            api_key?: null | components["schemas"]["ApiKey"];
            base_url: components["schemas"]["BaseUrl"];
            hotwords?: components["schemas"]["Hotwords"];
            /** @description Made up when left out. */
            id?: components["schemas"]["ModelId"];
            is_default?: boolean;
            language?: null | components["schemas"]["Language"];
            model: components["schemas"]["ModelName"];
            name: components["schemas"]["ModelTitle"];
        };
        /** @description A new document. */
        NewDocument: {
            /** @description The text: not only spaces, at most 1 MiB (counted in UTF-8 bytes). */
            body: string;
            /** @description Knowledge base id: 1-64 letters, digits, `_` or `-`. */
            kb_id: string;
            source?: string | null;
            /** @description 1 to 200 characters, not only spaces. */
            title: string;
        };
        /**
         * @description An LLM model to add: served elsewhere (`base_url` and `model`), or run by Deskmate from
         *     a GGUF file on this computer (`file`, instead of `base_url`).
         */
        NewLlmModel: {
            api_key?: null | components["schemas"]["ApiKey"];
            /** @description Required unless `file` is sent; not with `file`. */
            base_url?: components["schemas"]["BaseUrl"];
            /**
             * Format: int64
             * @description With `file`: the context size in tokens (default: what the file was trained for,
             *     at most 8192 and what free memory holds).
             */
            context_size?: number;
            /**
             * @description A GGUF file Deskmate runs with its own llama-server: checked before anything is
             *     stored (it must exist, be readable, be GGUF, fit in free memory and not be used by
             *     another model).
             */
            file?: components["schemas"]["ModelFilePath"];
            /** @description Made up when left out. */
            id?: components["schemas"]["ModelId"];
            /** @description Make it the default model (default false). */
            is_default?: boolean;
            /**
             * Format: int64
             * @description Most tokens of a reply (default 1024; 512 for a model from a file).
             */
            max_tokens?: number;
            /**
             * @description Required with `base_url`; with `file`, the name requests carry (default: from the
             *     file's name).
             */
            model?: components["schemas"]["ModelName"];
            name: components["schemas"]["ModelTitle"];
            /** @description Stream replies (default true). */
            streaming?: boolean;
            /**
             * Format: double
             * @description Sampling temperature (default 0.7; 0 for a model from a file).
             */
            temperature?: number;
            /**
             * Format: int64
             * @description With `file`: CPU threads (default: the computer's cores).
             */
            threads?: number;
            /**
             * Format: double
             * @description Nucleus sampling (default 1; 0.9 for a model from a file).
             */
            top_p?: number;
        };
        NewMcpServer: {
            args?: string[] | null;
            /** @description e.g. npx */
            command: string;
            /** @description Start it with the app (default true) */
            enabled?: boolean | null;
            /** @description Environment variables, kept as secrets */
            env?: {
                [key: string]: string;
            } | null;
            headers?: null;
            /** @description 1-24 of a-z, 0-9 and _: it prefixes the server's tools' ids */
            name: string;
            url?: null;
        } | {
            args?: null;
            command?: null;
            /** @description Start it with the app (default true) */
            enabled?: boolean | null;
            env?: null;
            /** @description Headers sent with every request, kept as secrets */
            headers?: {
                [key: string]: string;
            } | null;
            /** @description 1-24 of a-z, 0-9 and _: it prefixes the server's tools' ids */
            name: string;
            /** @description e.g. http://127.0.0.1:3000/mcp */
            url: string;
        };
        /**
         * @description A schedule to add: what to do — a reminder `message`, a `tool` call with its
         *     `arguments`, or a chat `prompt` — and `when`.
         */
        NewSchedule: {
            /** @description The tool's arguments. */
            arguments?: Record<string, never> | null;
            /** @description Whether it fires (default true). */
            enabled?: boolean;
            /** @description What to remind the person of (a reminder). */
            message?: string | null;
            /** @description A request run as a new chat turn. */
            prompt?: string | null;
            /**
             * @description Say the reminder out loud too. Not offered to a model (small models set every
             *     optional flag): a spoken reminder from the chat is a scheduled call of the voice
             *     tool, which the person's words must ask for.
             */
            speak?: boolean;
            /**
             * @description The IANA time zone of the wall times; the computer's own when left out. Not
             *     offered to a model: it would guess one (UTC), and the person's own is right.
             */
            time_zone?: string | null;
            /** @description The tool to call (a scheduled call). */
            tool?: string | null;
            /**
             * @description When, in words or ISO 8601 or an RRULE.
             * @example every weekday at 9
             */
            when: string;
        };
        /** @description One page of a longer list. */
        Page_AuditEvent: {
            /**
             * Format: int32
             * @description Most items a page holds.
             */
            limit: number;
            /** @description The items of this page. */
            list: {
                /** @description Arguments with secrets masked. */
                arguments: unknown;
                /** @description When it finished (RFC 3339, UTC). */
                at: string;
                /** @description The call. */
                call_id: string;
                /** @description The program behind that front end, as it named itself (an MCP client). */
                client?: string | null;
                /** @description The conversation the call belongs to, if any. */
                conversation_id?: string | null;
                /**
                 * Format: int64
                 * @description Wall-clock duration.
                 */
                duration_ms: number;
                /** @description Why it failed. */
                error?: string | null;
                error_type?: null | components["schemas"]["ErrorType"];
                /** @description How to fix it (or what was cut from a long result). */
                hint?: string | null;
                /** @description The idempotency key, if any. */
                idem_key?: string | null;
                /** @description Whether the call succeeded. */
                ok: boolean;
                /** @description Which front end made the call. */
                origin: string;
                /** @description Repairs the guard made. */
                repairs: components["schemas"]["Repair"][];
                /** @description What it returned, capped by the writer. */
                result?: unknown;
                /** @description The tool id as resolved, or the name as asked when it did not resolve. */
                tool: string;
            }[];
            /**
             * Format: int32
             * @description This page's number, from 1.
             */
            page: number;
            /**
             * Format: int64
             * @description How many items the whole list has.
             */
            total: number;
        };
        /** @description One page of a longer list. */
        Page_KbDocument: {
            /**
             * Format: int32
             * @description Most items a page holds.
             */
            limit: number;
            /** @description The items of this page. */
            list: {
                /** @description Full text. */
                body: string;
                /** @description RFC 3339. */
                created_at: string;
                /**
                 * Format: int64
                 * @description Row id.
                 */
                id: number;
                /** @description The knowledge base it belongs to. */
                kb_id: string;
                /** @description Where it came from (an imported file name), if anywhere. */
                source?: string | null;
                /** @description Title. */
                title: string;
            }[];
            /**
             * Format: int32
             * @description This page's number, from 1.
             */
            page: number;
            /**
             * Format: int64
             * @description How many items the whole list has.
             */
            total: number;
        };
        /** @description One page of a longer list. */
        Page_RunRow: {
            /**
             * Format: int32
             * @description Most items a page holds.
             */
            limit: number;
            /** @description The items of this page. */
            list: {
                /**
                 * Format: int64
                 * @description Total time.
                 */
                duration_ms: number;
                /**
                 * Format: int64
                 * @description Checks or cases failed.
                 */
                failed: number;
                /** @description Run id. */
                id: string;
                /** @description `autotest`, `llm`, `asr` or `eval`. */
                kind: string;
                /** @description An evaluation's metrics. */
                metrics?: components["schemas"]["Metrics"];
                /** @description An evaluation's model. */
                model?: components["schemas"]["EvalModel"];
                /**
                 * Format: int64
                 * @description Checks or cases passed.
                 */
                passed: number;
                /** @description An autotest's groups of checks (not on an evaluation). */
                scope?: components["schemas"]["Scope"];
                /**
                 * Format: int64
                 * @description Checks skipped.
                 */
                skipped: number;
                /**
                 * Format: double
                 * @description Unix seconds.
                 */
                started_at: number;
                /** @description An evaluation's suite name. */
                suite?: string;
            }[];
            /**
             * Format: int32
             * @description This page's number, from 1.
             */
            page: number;
            /**
             * Format: int64
             * @description How many items the whole list has.
             */
            total: number;
        };
        /** @description One page of a longer list. */
        Page_ScheduleRun: {
            /**
             * Format: int32
             * @description Most items a page holds.
             */
            limit: number;
            /** @description The items of this page. */
            list: {
                /** @description When. */
                claimed_at: string;
                /** @description The process that claimed it. */
                claimed_by: string;
                /** @description When it ended. */
                finished_at?: string | null;
                /** @description The occurrence's time (see [`utc`]). */
                occurrence: string;
                /** @description What came of it (the tool's result, or why it failed or was missed). */
                result?: Record<string, never> | null;
                /** @description The schedule. */
                schedule_id: string;
                /** @description `running`, `succeeded`, `failed` or `missed`. */
                status: string;
            }[];
            /**
             * Format: int32
             * @description This page's number, from 1.
             */
            page: number;
            /**
             * Format: int64
             * @description How many items the whole list has.
             */
            total: number;
        };
        /** @description One page of a longer list. */
        Page_ScheduleView: {
            /**
             * Format: int32
             * @description Most items a page holds.
             */
            limit: number;
            /** @description The items of this page. */
            list: {
                /** @description What it does. */
                action: components["schemas"]["Action"];
                /** @description The conversation it came from. */
                conversation_id?: string | null;
                /** @description RFC 3339. */
                created_at: string;
                /** @description Who made it: `chat`, `api`, `gui`, `mcp` or `cli`. */
                created_by: string;
                /** @description Whether it fires. */
                enabled: boolean;
                /** @description Its id. */
                id: string;
                /** @description What came of the last run. */
                last_result?: Record<string, never> | null;
                /** @description When it last came due. */
                last_run_at?: string | null;
                /** @description `running`, `succeeded`, `failed` or `missed`. */
                last_status?: string | null;
                /** @description The next time it fires (RFC 3339, UTC); `null` when it fires no more. */
                next_at?: string | null;
                /** @description The same in its time zone (RFC 3339 with the offset). */
                next_at_local?: string | null;
                /** @description The rule as stored. */
                rule: Record<string, never>;
                /** @description The rule as understood, in words (en and zh). */
                rule_words: components["schemas"]["Localized"];
                /**
                 * Format: int64
                 * @description How many times it came due (run or missed).
                 */
                run_count: number;
                /** @description The IANA time zone of its wall times. */
                time_zone: string;
                /** @description RFC 3339. */
                updated_at: string;
                /** @description The time expression it was given. */
                when: string;
            }[];
            /**
             * Format: int32
             * @description This page's number, from 1.
             */
            page: number;
            /**
             * Format: int64
             * @description How many items the whole list has.
             */
            total: number;
        };
        /** @description One page of a longer list. */
        Page_ToolResource: {
            /**
             * Format: int32
             * @description Most items a page holds.
             */
            limit: number;
            /** @description The items of this page. */
            list: {
                /** @description `query` or `system`. */
                category: string;
                /** @description RFC 3339. */
                created_at: string;
                /** @description What the tool does. */
                description: string;
                display?: null | components["schemas"]["ToolDisplay"];
                /** @description Disabled tools are never offered to a model nor run. */
                enabled: boolean;
                /** @description Header values; secrets appear only as `{secret:NAME}` references. */
                http_headers: unknown;
                /** @description GET, POST, PUT, PATCH or DELETE. */
                http_method: string;
                /**
                 * Format: int64
                 * @description Request timeout.
                 */
                http_timeout_ms: number;
                /** @description Absolute http(s) URL with optional `{name}` path placeholders. */
                http_url?: string | null;
                /** @description Icon name. */
                icon?: string | null;
                /** @description The function name the model sees: `[a-z0-9_]{1,64}`. */
                id: string;
                /** @description Built-in: can be disabled, not deleted or re-pointed. */
                is_system: boolean;
                /** @description Display name. */
                name: string;
                /** @description Values merged under the caller's arguments. */
                parameter_defaults: unknown;
                /** @description JSON Schema 2020-12 of the arguments. */
                parameter_schema: unknown;
                /** @description `always`, `ask` or `never`; `None` means the default for the side effect. */
                policy?: string | null;
                /** @description `read`, `write` or `irreversible`. */
                side_effect: string;
                /** @description RFC 3339. */
                updated_at: string;
                /**
                 * Format: int64
                 * @description Owner (the API contract keeps it; a desktop app has one user).
                 */
                user_id: number;
                /** @description The API contract's flag for system tools. */
                wait_for_response: boolean;
            }[];
            /**
             * Format: int32
             * @description This page's number, from 1.
             */
            page: number;
            /**
             * Format: int64
             * @description How many items the whole list has.
             */
            total: number;
        };
        /**
         * @description When a call is confirmed: `always` runs, `ask` asks the person, `never` refuses.
         * @enum {string}
         */
        Policy: "always" | "ask" | "never";
        /** @description A question waiting for a person. */
        Prompt: {
            call?: null | components["schemas"]["ConfirmRequest"];
            /**
             * Format: double
             * @description Unix seconds.
             */
            created_at: number;
            /**
             * Format: double
             * @description Unix seconds; no answer by then means no.
             */
            expires_at: number;
            /** @description Prompt id (answer with `POST /api/v1/prompts/{id}/answer`). */
            id: string;
            /** @description Confirm a call, or pick one option. */
            kind: components["schemas"]["PromptKind"];
            /** @description The options of a choice. */
            options: string[];
            /** @description The question or the reason for the confirmation. */
            question: string;
        };
        /**
         * @description An answer to a pending prompt: `approve` for a confirmation, `index` or `choice` for a
         *     choice. Which of them fits depends on the prompt it answers (its kind, how many
         *     options it has): an answer that does not fit is refused with what the prompt takes.
         */
        PromptAnswer: {
            /** @description A confirmation's answer: go ahead or not. */
            approve?: boolean;
            /** @description A choice's answer: the option's text (case and surrounding spaces ignored). */
            choice?: string;
            /**
             * Format: int64
             * @description A choice's answer: the option's index, from 0.
             */
            index?: number;
            /**
             * @description With `remember: "always"` for a tool that cannot be undone: the second, explicit
             *     yes it needs.
             */
            irreversible_confirmed?: boolean;
            /**
             * @description With a yes: how far it reaches — `once` (the default), `conversation` (this tool
             *     in this conversation), `always` (this tool, until taken back). Only what the
             *     question's `call.grants` offers.
             */
            remember?: components["schemas"]["Grant"];
        };
        /**
         * @description What a prompt asks for.
         * @enum {string}
         */
        PromptKind: "confirm" | "choice";
        /** @description Whether the microphone records now. */
        Recording: {
            /** @description `true` after a start, `false` after a cancel. */
            recording: boolean;
        };
        /** @description A new title. */
        Rename: {
            /** @description 1 to 200 characters. */
            title: string;
        };
        /** @description One change the guard made to a model's arguments, so nobody has to guess what ran. */
        Repair: {
            /** @description The value as the caller sent it. */
            from: unknown;
            /** @description JSON pointer of the repaired value (`""` for the whole argument object). */
            path: string;
            /** @description Which normalization rule made the change. */
            rule: components["schemas"]["RepairRule"];
            /** @description The value the tool received. */
            to: unknown;
        };
        /**
         * @description The normalizer's rules; each is table-tested in `normalize`.
         * @enum {string}
         */
        RepairRule: "parse_json_string" | "empty_arguments" | "strip_code_fence" | "trailing_comma" | "close_brackets" | "trim" | "enum_case" | "strip_suffix" | "scalar_to_list" | "list_to_scalar" | "split_list" | "dedupe" | "number_from_string" | "percent" | "bool_from_string" | "parse_nested_json" | "all_keyword" | "drop_null" | "key_case" | "default_value" | "listed_options" | "extracted_from_content";
        /**
         * @description An HTTP tool to add or change. On a change the fields left out keep their values; on
         *     create `name`, `category` and `http_url` are needed.
         */
        ResourceInput: {
            category?: null | components["schemas"]["Category"];
            /** @description Read-only: ignored. */
            created_at?: unknown;
            /** @description What the tool does, for the model and the person. */
            description?: string | null;
            display?: null | components["schemas"]["DisplayInput"];
            /** @description Whether the model is offered the tool. */
            enabled?: boolean | null;
            /** @description Header names and one-line values; `{secret:NAME}` inserts a stored secret. */
            http_headers?: {
                [key: string]: string;
            } | null;
            /** @description GET, POST, PUT, PATCH or DELETE (any case; default GET). */
            http_method?: string | null;
            /**
             * Format: int64
             * @description 100 to 120000 (default 10000).
             */
            http_timeout_ms?: number | null;
            /**
             * @description An absolute http(s) URL; `{name}` placeholders in its path are filled from the
             *     arguments.
             */
            http_url?: string | null;
            /** @description An icon name for the GUI. */
            icon?: string | null;
            /**
             * @description The function name the model sees: 1–64 of a-z, 0-9 and `_`; made from the name
             *     when left out. It cannot change.
             */
            id?: string | null;
            /** @description Read-only: ignored. */
            is_system?: unknown;
            /** @description A short display name, at most 100 characters. */
            name?: string | null;
            /** @description Values for arguments the model leaves out. */
            parameter_defaults?: Record<string, never> | null;
            /** @description A JSON Schema 2020-12 object schema of the arguments. */
            parameter_schema?: Record<string, never> | null;
            policy?: null | components["schemas"]["Policy"];
            side_effect?: null | components["schemas"]["SideEffect"];
            /** @description Read-only: ignored. */
            updated_at?: unknown;
            /** @description Read-only, sent back from a GET: ignored. */
            user_id?: unknown;
            /** @description Only `false`: an HTTP tool always waits for its service's answer. */
            wait_for_response?: boolean | null;
        };
        /**
         * @description A stored run (an autotest or an evaluation) in the history, with its counts. The
         *     parts read from the stored result are as stored: a run stored before a field was
         *     kept has `null` there.
         */
        RunRow: {
            /**
             * Format: int64
             * @description Total time.
             */
            duration_ms: number;
            /**
             * Format: int64
             * @description Checks or cases failed.
             */
            failed: number;
            /** @description Run id. */
            id: string;
            /** @description `autotest`, `llm`, `asr` or `eval`. */
            kind: string;
            /** @description An evaluation's metrics. */
            metrics?: components["schemas"]["Metrics"];
            /** @description An evaluation's model. */
            model?: components["schemas"]["EvalModel"];
            /**
             * Format: int64
             * @description Checks or cases passed.
             */
            passed: number;
            /** @description An autotest's groups of checks (not on an evaluation). */
            scope?: components["schemas"]["Scope"];
            /**
             * Format: int64
             * @description Checks skipped.
             */
            skipped: number;
            /**
             * Format: double
             * @description Unix seconds.
             */
            started_at: number;
            /** @description An evaluation's suite name. */
            suite?: string;
        };
        /**
         * @description A change of a schedule: `enabled` turns it on or off (on, it goes on from now); any
         *     other field redefines it, and what the change leaves out stays as it was (a new
         *     `message`, `tool` or `prompt` replaces the action whole).
         */
        ScheduleChange: {
            /** @description Its arguments. */
            arguments?: Record<string, never>;
            /** @description Whether it fires. */
            enabled?: boolean;
            /** @description A new reminder text (the action becomes this reminder). */
            message?: string;
            /** @description A new prompt to run as a chat turn. */
            prompt?: string;
            /** @description Say the new reminder out loud too. */
            speak?: boolean;
            /** @description A new IANA time zone for the wall times. */
            time_zone?: string;
            /** @description A new tool to call (with `arguments`). */
            tool?: string;
            /** @description A new time, as for a new schedule. */
            when?: string;
        };
        /** @description One occurrence that came due. */
        ScheduleRun: {
            /** @description When. */
            claimed_at: string;
            /** @description The process that claimed it. */
            claimed_by: string;
            /** @description When it ended. */
            finished_at?: string | null;
            /** @description The occurrence's time (see [`utc`]). */
            occurrence: string;
            /** @description What came of it (the tool's result, or why it failed or was missed). */
            result?: Record<string, never> | null;
            /** @description The schedule. */
            schedule_id: string;
            /** @description `running`, `succeeded`, `failed` or `missed`. */
            status: string;
        };
        /** @description A schedule as the API and the tools show it. */
        ScheduleView: {
            /** @description What it does. */
            action: components["schemas"]["Action"];
            /** @description The conversation it came from. */
            conversation_id?: string | null;
            /** @description RFC 3339. */
            created_at: string;
            /** @description Who made it: `chat`, `api`, `gui`, `mcp` or `cli`. */
            created_by: string;
            /** @description Whether it fires. */
            enabled: boolean;
            /** @description Its id. */
            id: string;
            /** @description What came of the last run. */
            last_result?: Record<string, never> | null;
            /** @description When it last came due. */
            last_run_at?: string | null;
            /** @description `running`, `succeeded`, `failed` or `missed`. */
            last_status?: string | null;
            /** @description The next time it fires (RFC 3339, UTC); `null` when it fires no more. */
            next_at?: string | null;
            /** @description The same in its time zone (RFC 3339 with the offset). */
            next_at_local?: string | null;
            /** @description The rule as stored. */
            rule: Record<string, never>;
            /** @description The rule as understood, in words (en and zh). */
            rule_words: components["schemas"]["Localized"];
            /**
             * Format: int64
             * @description How many times it came due (run or missed).
             */
            run_count: number;
            /** @description The IANA time zone of its wall times. */
            time_zone: string;
            /** @description RFC 3339. */
            updated_at: string;
            /** @description The time expression it was given. */
            when: string;
        };
        /** @description Which groups of checks a run had. */
        Scope: {
            /** @description The ASR checks. */
            asr: boolean;
            /** @description The devices' readiness. */
            devices: boolean;
            /** @description The LLM checks. */
            llm: boolean;
            /** @description Every tool's self-check. */
            tools: boolean;
        };
        /** @description The passages that best match a search. */
        SearchResults: {
            /** @description The matches, best first. */
            hits: components["schemas"]["KbHit"][];
            /** @description The words searched for. */
            query: string;
        };
        /** @description A secret that was deleted. */
        SecretDeleted: {
            /** @description Always `true`: a secret that was not set is a 404. */
            deleted: boolean;
            /** @description Its name. */
            name: string;
        };
        /** @description The names of the secrets (never their values) and where they are kept. */
        SecretList: {
            /** @description The names, sorted. */
            names: string[];
            /** @description The OS keyring, or the owner-only file and why. */
            store: components["schemas"]["StoreInfo"];
        };
        /** @description A secret that was set. */
        SecretSet: {
            /** @description Its name. */
            name: string;
            /** @description Always `true`. */
            set: boolean;
        };
        /** @description A secret's value. */
        SecretValue: {
            /** @description The secret: one line, at most 8192 bytes (UTF-8). */
            value: string;
        };
        /**
         * @description What a model's server is doing now.
         * @enum {string}
         */
        ServingState: "remote" | "starting" | "ready" | "stopped" | "failed";
        /** @description A setting with its current value. */
        Setting: {
            /** @description The default. */
            default: unknown;
            /** @description What it does. */
            description: components["schemas"]["Localized"];
            /** @description Whether the user set it. */
            is_set: boolean;
            /** @description Its key. */
            key: string;
            /** @description The value in force (the default when never set). */
            value: unknown;
        };
        /** @description Every known setting. */
        SettingList: {
            /** @description The settings, in a fixed order. */
            settings: components["schemas"]["Setting"][];
        };
        /** @description A setting's new value. */
        SettingValue: {
            value: unknown;
        };
        /** @description Which branch to show. */
        ShowBranch: {
            /**
             * Format: int64
             * @description A message of the conversation (a sibling from `branches`): its latest
             *     continuation is shown.
             */
            seq: number;
        };
        /**
         * @description What running a tool may change in the world.
         * @enum {string}
         */
        SideEffect: "read" | "write" | "irreversible";
        /** @description A file that was not imported. */
        Skipped: {
            /** @description The file name. */
            file: string;
            /** @description Why. */
            reason: string;
        };
        /**
         * @description Which part of the bundled suite a case belongs to.
         * @enum {string}
         */
        Split: "dev" | "heldout";
        /** @description The metrics and the category table of one part of the suite. */
        SplitReport: {
            /** @description Its categories. */
            by_category: components["schemas"]["CategoryRow"][];
            /** @description Its cases. */
            cases: number;
            /** @description Its metrics. */
            metrics: components["schemas"]["Metrics"];
            /** @description The part. */
            split: components["schemas"]["Split"];
        };
        /**
         * @description How a check ended.
         * @enum {string}
         */
        Status: "passed" | "failed" | "skipped";
        /** @description The store in use and why (shown in the GUI and the autotest). */
        StoreInfo: {
            /** @description Keyring or file. */
            backend: components["schemas"]["StoreKind"];
            /** @description Which keyring, or which file and why no keyring. */
            detail: string;
            /** @description The same in Chinese. */
            detail_zh: string;
        };
        /**
         * @description Where the secrets are.
         * @enum {string}
         */
        StoreKind: "keyring" | "file";
        /** @description Counts (the API contract's `TestSummary`, plus `skipped`): `total = passed + failed + skipped`. */
        Summary: {
            /** @description Checks failed. */
            failed: number;
            /** @description Checks passed. */
            passed: number;
            /** @description Checks skipped. */
            skipped?: number;
            /** @description All checks. */
            total: number;
        };
        /** @description One check (the API contract's `TestCase`, plus its `status`). */
        TestCase: {
            /**
             * Format: int64
             * @description How long the check took.
             */
            duration_ms: number;
            /** @description What was found, or what is wrong and how to fix it. */
            message: string;
            /** @description What was checked (`Model Existence`, `API Connection`, …). */
            name: string;
            /** @description Whether it passed (`false` for a failed and for a skipped check). */
            passed: boolean;
            /** @description Passed, failed or skipped. */
            status: components["schemas"]["Status"];
            zh?: null | components["schemas"]["CaseZh"];
        };
        /** @description A model's answer to a test message (the API contract's shape, plus `error` on failure). */
        TestMessage: {
            /** @description What went wrong. */
            error?: string | null;
            /** @description Its answer. */
            reply: string;
            /** @description Whether the model answered. */
            success: boolean;
            usage?: null | components["schemas"]["Usage"];
        };
        /**
         * @description What a person reads about a tool in the GUI, in both languages: its name and what it
         *     does in a sentence. A built-in tool's comes from its spec; an HTTP tool may carry one.
         */
        ToolDisplay: {
            /** @description What the tool does, in one sentence. */
            description: components["schemas"]["Localized"];
            /** @description The display name. */
            name: components["schemas"]["Localized"];
        };
        /** @description A tool as a model is offered it. */
        ToolEntry: {
            /** @description What it does and when to use it, as the model reads it. */
            description: string;
            /** @description Its display name (Chinese). */
            name: string;
            /** @description The JSON Schema of its arguments. */
            parameters: unknown;
        };
        /** @description Every enabled tool, by id. */
        ToolList: {
            /** @description The tools by id, in the registry's order. */
            tools: {
                [key: string]: components["schemas"]["ToolEntry"];
            };
        };
        /** @description One tool resource as stored. */
        ToolResource: {
            /** @description `query` or `system`. */
            category: string;
            /** @description RFC 3339. */
            created_at: string;
            /** @description What the tool does. */
            description: string;
            display?: null | components["schemas"]["ToolDisplay"];
            /** @description Disabled tools are never offered to a model nor run. */
            enabled: boolean;
            /** @description Header values; secrets appear only as `{secret:NAME}` references. */
            http_headers: unknown;
            /** @description GET, POST, PUT, PATCH or DELETE. */
            http_method: string;
            /**
             * Format: int64
             * @description Request timeout.
             */
            http_timeout_ms: number;
            /** @description Absolute http(s) URL with optional `{name}` path placeholders. */
            http_url?: string | null;
            /** @description Icon name. */
            icon?: string | null;
            /** @description The function name the model sees: `[a-z0-9_]{1,64}`. */
            id: string;
            /** @description Built-in: can be disabled, not deleted or re-pointed. */
            is_system: boolean;
            /** @description Display name. */
            name: string;
            /** @description Values merged under the caller's arguments. */
            parameter_defaults: unknown;
            /** @description JSON Schema 2020-12 of the arguments. */
            parameter_schema: unknown;
            /** @description `always`, `ask` or `never`; `None` means the default for the side effect. */
            policy?: string | null;
            /** @description `read`, `write` or `irreversible`. */
            side_effect: string;
            /** @description RFC 3339. */
            updated_at: string;
            /**
             * Format: int64
             * @description Owner (the API contract keeps it; a desktop app has one user).
             */
            user_id: number;
            /** @description The API contract's flag for system tools. */
            wait_for_response: boolean;
        };
        /** @description The single result shape of a tool call. */
        ToolResult: {
            /** @description Identifier of this call (also in the audit log). */
            call_id: string;
            /** @description The tool's answer, small and structured; `null` on error. */
            data: unknown;
            /**
             * Format: int64
             * @description Wall-clock time of the whole call through the guard.
             */
            duration_ms: number;
            /** @description What went wrong, in one sentence. */
            error?: string | null;
            error_type?: null | components["schemas"]["ErrorType"];
            /** @description How to fix the call, or how to narrow a truncated answer. */
            hint?: string | null;
            /** @description Whether the call succeeded. */
            ok: boolean;
            /** @description Valid values where the set is known (tool ids, enum values, dataset names). */
            options: string[];
            /** @description Every change the guard made to the arguments. */
            repairs: components["schemas"]["Repair"][];
            /** @description Whether `data` was cut to fit the limits (the hint then says what was cut). */
            truncated: boolean;
        };
        /** @description What was said while the key was held. */
        Transcript: {
            /**
             * Format: float
             * @description How long the recording was, in seconds.
             */
            seconds: number;
            /** @description The words heard; empty when nothing was said. */
            text: string;
        };
        /** @description Token counts. */
        Usage: {
            /**
             * Format: int64
             * @description Generated tokens.
             */
            completion_tokens?: number;
            /**
             * Format: int64
             * @description Prompt tokens.
             */
            prompt_tokens?: number;
            /**
             * Format: int64
             * @description Both.
             */
            total_tokens?: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    approvals_list: {
        parameters: {
            query?: {
                /** @description Only this tool's approvals. */
                tool?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approvals, the newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Items_Approval"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description An empty or too long tool id */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    approvals_revoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Approval id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approval was taken back */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Approval not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    audit_list: {
        parameters: {
            query?: {
                tool?: string;
                /** @description Only calls that succeeded, or only those that failed. */
                outcome?: "ok" | "error";
                /** @description RFC 3339 time; events at or after it. */
                since?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page (default 50). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the log, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_AuditEvent"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    chat_chat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatBody"];
            };
        };
        responses: {
            /** @description text/event-stream: plan, token, tool_call, tool_result, prompt, error, done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description LLM Model not found / Conversation not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Invalid message */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    chat_list: {
        parameters: {
            query?: {
                /**
                 * @description Search all conversations for these words (1 to 200 characters, trimmed; every
                 *     word must be found in a title or one entry, in any case, Chinese inside a longer
                 *     phrase too). With it, the answer is one page of hits.
                 */
                q?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description At most this many (default 200; 50 with `q`). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Without `q`: the conversations, most recently used first (`{list}`). With `q`: one page of hits (`{total, page, limit, list}`), each a title or an entry (`seq`, as in the conversation's entries) with a snippet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationListing"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `q` is empty or longer than 200 characters: `errors` names `/q` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    chat_import: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConversationExport"];
            };
        };
        responses: {
            /** @description The conversation made from the export */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationDetail"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {detail, errors}: every wrong field; nothing stored */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    chat_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation and its entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationDetail"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conversation not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    chat_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conversation not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    chat_rename: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Rename"];
            };
        };
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conversation not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Invalid title */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    chat_show_branch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Conversation id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ShowBranch"];
            };
        };
        responses: {
            /** @description The conversation as it now shows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationDetail"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conversation or message not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Invalid body */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    chat_export: {
        parameters: {
            query?: {
                /** @description `markdown` (default) or `json`. */
                format?: "markdown" | "json";
                /** @description `active` (the branch shown, default) or `all`. */
                branches?: "active" | "all";
                /** @description The language of the Markdown's labels: `zh-CN` or `en` (default). */
                lang?: string;
            };
            header?: never;
            path: {
                /** @description Conversation id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation as Markdown (text/markdown) or as JSON to import again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/markdown": string;
                    "application/json": components["schemas"]["ConversationExport"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conversation not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    devices_camera_frame: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description image/jpeg */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": number[];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The camera is off */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The camera is busy or failed */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    eval_run: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EvalBody"];
            };
        };
        responses: {
            /** @description EvalReport {id, model, suite, started_at, duration_ms, metrics, by_category, by_split, results, markdown}; SSE case/done with Accept: text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalAnswer"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description LLM Model not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Invalid suite or options */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    eval_runs: {
        parameters: {
            query?: {
                /** @description 1-based page (default 1). */
                page?: number;
                /** @description Runs per page (default 20, at most 200). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the stored evaluations, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_RunRow"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    eval_run_detail: {
        parameters: {
            query?: {
                /** @description `json` (default) or `markdown`. */
                format?: string;
            };
            header?: never;
            path: {
                /** @description Evaluation id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report, or text/markdown with format=markdown */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvalAnswer"];
                    "text/markdown": string;
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Evaluation not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    devices_events: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream of `prompt` and `message` events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    knowledge_list: {
        parameters: {
            query?: {
                kb_id?: string;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page (default 50). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the documents, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_KbDocument"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    knowledge_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewDocument"];
            };
        };
        responses: {
            /** @description The document */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KbDocument"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid JSON that breaks the rules: one entry per problem in `errors` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    knowledge_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Document id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KbDocument"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    knowledge_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Document id */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedDocument"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Nothing with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    knowledge_import: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Import"];
            };
        };
        responses: {
            /** @description What was imported and what was left out */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportReport"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid JSON that breaks the rules: one entry per problem in `errors` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    knowledge_search: {
        parameters: {
            query: {
                q: string;
                kb_id?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The best matches */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResults"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    mcp_import: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpImport"];
            };
        };
        responses: {
            /** @description The servers added */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Listed_McpServerView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A server of this name exists: `errors` names the field */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {detail, errors: [{path, message, hint}]} */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    mcp_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {list: [server]}: name, command/args/env or url/headers, enabled, status {state: starting|running|failed|disabled, tools?, protocol?, reason?}, tools (ids) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Listed_McpServerView"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    mcp_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewMcpServer"];
            };
        };
        responses: {
            /** @description The stored server */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServerView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A server with this name exists: `errors` names the field */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {detail, errors: [{path, message, hint}]} */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    mcp_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Server name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServerView"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such server */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    mcp_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Server name */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpServerChange"];
            };
        };
        responses: {
            /** @description The stored server */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServerView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such server */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {detail, errors: [{path, message, hint}]} */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    mcp_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Server name */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server was removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedServer"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such server */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    mcp_approve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Server name */
                name: string;
                /** @description The tool's name on its server */
                tool: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The server */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServerView"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No changed tool of that name */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_list_files: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The .gguf files of the models folders (the cache's `models` and the folder the `models.folder` setting names), each with what its header says, or why it cannot be added, and the model that runs it already. Add one with `POST /api/v1/models/llm` and `file` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Listed_FoundFile"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_list_asr: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every ASR model, the default first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Listed_AsrModelView"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_create_asr: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewAsrModel"];
            };
        };
        responses: {
            /** @description The model (api_key masked) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AsrModelView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A model with this id exists: `errors` names the field */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {detail, errors} */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_get_asr: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Model id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AsrModelView"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description ASR Model not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_update_asr: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Model id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AsrModelChange"];
            };
        };
        responses: {
            /** @description The model */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AsrModelView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Nothing with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_delete_asr: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Model id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description ASR Model not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_list_llm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every LLM model, the default first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Listed_LlmModelView"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_create_llm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewLlmModel"];
            };
        };
        responses: {
            /** @description The model (api_key masked) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmModelView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A model with this id exists: `errors` names the field */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {detail, errors} */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_get_llm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Model id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmModelView"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description LLM Model not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_update_llm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Model id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LlmModelChange"];
            };
        };
        responses: {
            /** @description The model */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LlmModelView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Nothing with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    models_delete_llm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Model id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description LLM Model not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    meta_document: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    prompts_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The prompts waiting for an answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Items_Prompt"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    prompts_answer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Prompt id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PromptAnswer"];
            };
        };
        responses: {
            /** @description The answer was taken */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answered"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not pending */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Wrong answer for the prompt */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    schedules_list: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page (default 50). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the schedules, the next to fire first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ScheduleView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    schedules_create: {
        parameters: {
            query?: {
                /** @description `gui` when the person makes it in the app's window; `api` by default. */
                origin?: components["schemas"]["CallOrigin"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewSchedule"];
            };
        };
        responses: {
            /** @description The schedule, with its rule in words and its next time */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The tool may never run, or the person said no */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {detail, errors}: the field that is wrong */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    schedules_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Schedule id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleView"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Schedule not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    schedules_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Schedule id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScheduleChange"];
            };
        };
        responses: {
            /** @description The schedule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScheduleView"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The tool may never run, or the person said no */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Schedule not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {detail, errors}: the field that is wrong; nothing changed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    schedules_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Schedule id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule and its runs were deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Schedule not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    schedules_runs: {
        parameters: {
            query?: {
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page (default 50). */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Schedule id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of its runs, the latest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ScheduleRun"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Schedule not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    secrets_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The names of the secrets and where they are kept */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretList"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    secrets_set: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Secret name: 1-64 letters, digits, `_`, `.` or `-` */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SecretValue"];
            };
        };
        responses: {
            /** @description The secret is set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretSet"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Nothing with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid JSON that breaks the rules: one entry per problem in `errors` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    secrets_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Secret name: 1-64 letters, digits, `_`, `.` or `-` */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The secret is deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SecretDeleted"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not set */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    settings_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every known setting */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettingList"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    settings_set: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Setting key, e.g. sandbox.allow_weaker */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SettingValue"];
            };
        };
        responses: {
            /** @description The setting */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Setting"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Unknown key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Wrong type */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    autotest_run: {
        parameters: {
            query?: {
                /** @description LLM model id (default: the default model). */
                llm_model_id?: string;
                /** @description ASR model id (default: the default model). */
                asr_model_id?: string;
                /** @description Check the LLM (default true). */
                test_llm?: boolean;
                /** @description Check the ASR (default true). */
                test_asr?: boolean;
                /** @description Check the devices (default true). */
                test_devices?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AutotestResult {id, started_at, duration_ms, tests, summary}; SSE check/done with Accept: text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutotestResult"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    autotest_asr: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description ASR model id */
                model_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ASR checks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutotestResult"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Nothing with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    autotest_llm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description LLM model id */
                model_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The LLM checks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutotestResult"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Nothing with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    autotest_runs: {
        parameters: {
            query?: {
                /** @description 1-based page (default 1). */
                page?: number;
                /** @description Runs per page (default 20, at most 200). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the stored runs, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_RunRow"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    autotest_run_detail: {
        parameters: {
            query?: {
                /** @description `json` (default) or `junit` (JUnit XML, for CI systems). */
                format?: "json" | "junit";
            };
            header?: never;
            path: {
                /** @description Run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AutotestResult (JSON), or JUnit XML with ?format=junit */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutotestResult"];
                    "application/xml": string;
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Autotest run not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    autotest_compare: {
        parameters: {
            query?: {
                /** @description Another run's id (default: the previous run of the same kind and scope). */
                with?: string;
            };
            header?: never;
            path: {
                /** @description Run id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The checks whose status changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comparison"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Autotest run not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    tools_call: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CallBody"];
            };
        };
        responses: {
            /** @description The result shape: ok, data, error, error_type, hint, options, repairs, truncated, call_id, duration_ms */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolResult"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Valid JSON that breaks the rules: one entry per problem in `errors` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    tools_health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The API answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    tools_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every enabled tool: {"tools": {id: {name, description, parameters}}} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolList"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    tools_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Tool id */
                tool_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tool as a model is offered it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolEntry"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {"detail": "Tool not found"} */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resources_list: {
        parameters: {
            query?: {
                /** @description Only HTTP tools (`query`) or only built-in ones (`system`). */
                category?: "query" | "system";
                enabled?: boolean;
                include_system?: boolean;
                /** @description Page number, from 1. */
                page?: number;
                /** @description Items per page (default 100). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of the resources */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Page_ToolResource"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resources_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResourceInput"];
            };
        };
        responses: {
            /** @description The stored resource */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolResource"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description {detail, errors: [{path, message, hint}]} */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resources_detail: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolResource"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resources_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResourceInput"];
            };
        };
        responses: {
            /** @description The stored resource */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolResource"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Nothing with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is over 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not sent as application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Invalid input */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resources_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Resource id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The resource was deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A built-in tool */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Nothing with this id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    autotest_test_message: {
        parameters: {
            query: {
                /** @description LLM model id. */
                llm_model_id: string;
                /** @description The message (default "Hello, this is a test message."). */
                message?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model's answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestMessage"];
                };
            };
            /** @description The request could not be read (malformed JSON, or a query value of the wrong type) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description LLM Model not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    devices_cancel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Not recording */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Recording"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No microphone in this app */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    devices_start: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recording */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Recording"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No microphone or no ASR model */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Already recording */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The microphone cannot be opened or delivers no sound */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    devices_stop: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What was said; `text` is empty when nothing was said */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transcript"];
                };
            };
            /** @description Missing or invalid bearer token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Refused: a Host or Origin that is not this machine's loopback address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No microphone in this app */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not recording */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The microphone or the ASR failed */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
