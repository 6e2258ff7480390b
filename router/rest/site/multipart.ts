// multipart/form-data bodies, read the way PHP fills $_POST and $_FILES for WordPress: form
// fields become body parameters (bracketed names nest, as in PHP) and file parts become
// uploaded files. Parsing is busboy's (the parser Fastify's and Express's multipart plugins use).
import busboy from "busboy";
import qs from "qs";

export interface UploadedFile {
  /** The name the client gave the file (its path stripped). */
  filename: string;
  /** The part's declared type (WordPress ignores it and goes by the file itself). */
  contentType: string;
  bytes: Buffer;
}

export interface MultipartBody { fields: Record<string, unknown>; files: Record<string, UploadedFile> }

export const isMultipart = (contentType: string | undefined) => /^multipart\/form-data\b/i.test(contentType ?? "");

/** Parses a complete multipart body; a malformed one yields what was read before the error (PHP's behaviour: no error, fewer fields). */
export function parseMultipart(body: Buffer, contentType: string): Promise<MultipartBody> {
  return new Promise((resolve) => {
    const pairs: [string, string][] = [];
    const files: Record<string, UploadedFile> = {};
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { "content-type": contentType }, preservePath: false, defParamCharset: "utf8" });
    } catch {
      resolve({ fields: {}, files: {} });
      return;
    }
    const done = () => resolve({ fields: qs.parse(new URLSearchParams(pairs).toString(), { depth: 10, arrayLimit: 1000 }) as Record<string, unknown>, files });
    parser.on("field", (name, value) => { pairs.push([name, value]); });
    parser.on("file", (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      // A part cut short (the form ends inside it) errors on its own stream; unheard, that error
      // would crash the process. The part is dropped, as PHP drops a partial upload.
      stream.on("error", () => undefined);
      stream.on("end", () => {
        if (info.filename !== undefined) {
          files[name] = { filename: info.filename.replace(/^.*[\\/]/, ""), contentType: info.mimeType, bytes: Buffer.concat(chunks) };
        }
      });
    });
    parser.on("close", done);
    parser.on("error", done);
    parser.end(body);
  });
}
