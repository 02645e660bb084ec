import type { Context } from "../context/context.ts";
import { payloadTooLargeError } from "../errors/http-error.ts";
import { bodyError } from "../errors/param-errors.ts";
import type { FileOptions } from "../schema/mark.ts";
import type { Plan } from "../schema/plan.ts";
import type { CompiledSource } from "./compile-source.ts";
import { readMultipart } from "./multipart.ts";
import { keyPath, type NestedGroup, nestedBuilder } from "./parse-nested.ts";
import { boundaryOf, fieldError, type PartHead, type PartPlan } from "./part-head.ts";
import { acceptsType, type StreamedFile } from "./t.ts";

/**
 * Reads a `multipart/form-data` body into the same nested groups a urlencoded form gives, with files
 * as `File`s (or streams, for `t.file({ stream: true })`). Only declared file fields may carry files:
 * another file is refused when its headers arrive.
 */
export async function readMultipartForm(
  ctx: Context,
  compiled: CompiledSource,
  contentType: string,
): Promise<NestedGroup> {
  const boundary = boundaryOf(contentType);
  const limits = ctx.limits;
  const length = ctx.request.headers.get("content-length");
  if (length !== null && Number(length) > limits.bodySize) throw payloadTooLargeError(limits.bodySize);
  const raw = compiled.preserveBody ? ctx.request.raw.clone() : ctx.request.raw;
  if (raw.body === null) throw bodyError("form", "Missing request body");
  const files = declaredFiles(compiled.plan);
  const builder = nestedBuilder("form", limits);
  await readMultipart(
    raw.body.getReader(),
    boundary,
    {
      bodySize: limits.bodySize,
      fields: limits.paramCount,
      files: limits.multipartFiles,
      fieldSize: limits.multipartFieldSize,
      headerSize: limits.multipartHeaderSize,
      headerLines: limits.multipartHeaderLines,
    },
    {
      plan(head: PartHead): PartPlan {
        const options = files.get(keyPath(head.name).join("\u0000"));
        if (options === undefined) {
          if (head.filename !== undefined)
            throw fieldError(head.name, "is a file, which this form does not declare");
          return { kind: "field" };
        }
        // A file without a name comes with an empty file name (browsers), or none but a type (undici).
        if (head.filename === undefined && !head.typed) throw fieldError(head.name, "must be a file");
        if ((head.filename ?? "") !== "" && !acceptsType(options.types, head.type)) {
          throw fieldError(head.name, `has type ${head.type}, expected ${options.types!.join(" or ")}`);
        }
        return { kind: "file", maxSize: options.maxSize ?? limits.bodySize, stream: options.stream === true };
      },
      field: (head, value) => builder.add(head.name, value),
      // A file input left empty is sent as a part without content and with an empty file name.
      file: (head, value) => {
        if (!(value.size === 0 && (head.rawFilename ?? "") === "")) builder.add(head.name, value);
      },
      stream: (head, content) => {
        let taken = false;
        // A streamed file the handler never took is read to its end (within the body limit) once the
        // response is sent, so that the connection can carry the next request.
        ctx.whenHandedOver(() => {
          if (!taken) content.pipeTo(new WritableStream()).catch(() => {});
        });
        const streamed: StreamedFile = {
          name: head.filename ?? "",
          rawName: head.rawFilename ?? "",
          type: head.type,
          stream() {
            if (taken) throw new TypeError("A streamed file can be read only once");
            taken = true;
            return content;
          },
        };
        builder.add(head.name, streamed);
      },
    },
  );
  return builder.root;
}

// The declared file fields, by their key path (`avatar`, `photos` for an array, `user\0avatar`).
function declaredFiles(
  plan: Plan,
  path: string[] = [],
  out = new Map<string, FileOptions>(),
): Map<string, FileOptions> {
  if (plan.kind === "group") {
    for (const field of plan.fields) declaredFiles(field.plan, [...path, field.key], out);
  } else if (plan.kind === "array") {
    declaredFiles(plan.item, path, out);
  } else if (plan.file !== undefined) {
    out.set(path.join("\u0000"), plan.file);
  }
  return out;
}
