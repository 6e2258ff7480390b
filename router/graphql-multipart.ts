// POST /graphql also takes the GraphQL multipart request convention
// (github.com/jaydenseric/graphql-multipart-request-spec): an `operations` field (the usual JSON
// body, files as null), a `map` field (file part name → paths into operations) and the file parts.
// The router reads the parts and puts, at each mapped path, the MediaFileInput the media mutations
// already take ({ base64, filename, contentType }), so a client writes
// `mutation($file: MediaFileInput!) { createMediaItem(file: $file) … }` and maps its file to
// `variables.file`. The subgraph contract stays base64 (no Upload scalar crosses the gateway):
// subgraphs keep one input shape whichever way the bytes arrived.
import busboy from "busboy";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { SMALL_BODY_BYTES, UPLOAD_BODY_BYTES } from "./body-limits.ts";

class RequestError extends Error {
  constructor(message: string, readonly statusCode = 400) { super(message); }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (value: unknown): value is Record<string, Json> => typeof value === "object" && value !== null;

// Apollo's CSRF prevention: multipart/form-data is a "simple" request a page on any origin can
// send, so it must carry a header only a preflighted request can. Checked before the body is read.
const PREFLIGHT_HEADERS = ["apollo-require-preflight", "x-apollo-operation-name"];

/** Writes `file` at a dotted path (`variables.file`, `variables.files.0`) whose value is null. */
function placeAt(operations: Json, path: string, file: Json): void {
  const keys = path.split(".");
  let target: Json = operations;
  for (const key of keys.slice(0, -1)) {
    target = isObject(target) ? target[key] ?? null : null;
  }
  const last = keys[keys.length - 1];
  if (!isObject(target) || !(last in target) || target[last] !== null) {
    throw new RequestError(`The 'map' path '${path}' does not name a null value in 'operations'.`);
  }
  target[last] = file;
}

function parseJsonField(name: string, value: string): Json {
  try {
    return JSON.parse(value) as Json;
  } catch {
    throw new RequestError(`The '${name}' multipart field is not valid JSON.`);
  }
}

function readMap(value: Json): Map<string, string[]> {
  if (!isObject(value) || Array.isArray(value)) throw new RequestError("The 'map' multipart field must be a JSON object.");
  const map = new Map<string, string[]>();
  for (const [name, paths] of Object.entries(value)) {
    if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === "string")) {
      throw new RequestError(`The 'map' entry '${name}' must be a non-empty array of paths.`);
    }
    map.set(name, paths as string[]);
  }
  return map;
}

/** Reads the multipart stream into the operations body Apollo would get as JSON. */
function parseOperations(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Json> {
  // An anonymous caller gets the small limit even when the length is not declared up front.
  const credentials = request.headers.authorization !== undefined || request.headers["x-esg-auth-token"] !== undefined;
  const limit = credentials ? UPLOAD_BODY_BYTES : SMALL_BODY_BYTES;
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: request.headers, limits: { fileSize: limit, fields: 2, fieldSize: SMALL_BODY_BYTES } });
    } catch {
      reject(new RequestError("The multipart body has no boundary."));
      return;
    }
    let operations: Json | undefined;
    let map: Map<string, string[]> | undefined;
    const files = new Map<string, Json>();
    const reading: Promise<void>[] = [];
    let total = 0;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      payload.unpipe(parser);
      payload.resume();
      reject(error);
    };

    parser.on("field", (name, value) => {
      try {
        if (name === "operations" && operations === undefined) operations = parseJsonField(name, value);
        else if (name === "map" && operations !== undefined && map === undefined) map = readMap(parseJsonField(name, value));
        else throw new RequestError("Multipart fields must be 'operations', then 'map', then the files.");
      } catch (error) {
        fail(error as Error);
      }
    });
    parser.on("file", (name, stream, info) => {
      if (map === undefined || !map.has(name)) {
        stream.resume();
        fail(new RequestError(map === undefined ? "The 'operations' and 'map' fields must come before the files." : `The file part '${name}' is not in 'map'.`));
        return;
      }
      reading.push(new Promise((done) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => {
          total += chunk.length;
          if (total > limit) fail(new RequestError(`The uploaded files are larger than ${limit} bytes${credentials ? "" : " allowed without credentials"}.`, 413));
          else chunks.push(chunk);
        });
        stream.on("limit", () => fail(new RequestError(`The uploaded files are larger than ${limit} bytes.`, 413)));
        stream.on("error", (error: Error) => fail(new RequestError(error.message)));
        stream.on("end", () => {
          files.set(name, { base64: Buffer.concat(chunks).toString("base64"), filename: info.filename ?? null, contentType: info.mimeType });
          done();
        });
      }));
    });
    parser.on("error", (error: Error) => fail(error instanceof RequestError ? error : new RequestError(`The multipart body is malformed: ${error.message}`)));
    parser.on("close", () => {
      void Promise.all(reading).then(() => {
        if (failed) return;
        try {
          if (operations === undefined || !isObject(operations)) throw new RequestError("The 'operations' multipart field is missing or not a JSON object.");
          if (map === undefined) throw new RequestError("The 'map' multipart field is missing.");
          for (const [name, paths] of map) {
            const file = files.get(name);
            if (file === undefined) throw new RequestError(`The file part '${name}' named in 'map' is missing.`);
            for (const path of paths) placeAt(operations, path, file);
          }
          resolve(operations);
        } catch (error) {
          fail(error as Error);
        }
      });
    });
    payload.pipe(parser);
  });
}

/** Registers the multipart parser in the /graphql scope (beside Fastify's JSON parser). */
export function registerGraphqlMultipart(scope: FastifyInstance): void {
  scope.addContentTypeParser("multipart/form-data", async (request: FastifyRequest, payload: NodeJS.ReadableStream) => {
    if (!PREFLIGHT_HEADERS.some((name) => (request.headers[name] ?? "") !== "")) {
      throw new RequestError("This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). "
        + `A multipart request must send a non-empty value for one of these headers: ${PREFLIGHT_HEADERS.join(", ")}.`);
    }
    return parseOperations(request, payload);
  });
}
