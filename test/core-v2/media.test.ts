// core/v2/media over real HTTP: uploads (raw and multipart) of images made here with sharp,
// sub-sizes and files served at their source_url, list filters, edits, post-processing,
// deletion, and featured images through GraphQL and `_embed`.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { hashAppPassword } from "../../subgraphs/content/users/users.ts";
import { startTestSystem, type TestResponse, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
let dataDir: string;
const R = "/wp-json";
const SITE = "http://example.test";

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "media-test-"));
  s = await startTestSystem({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await s?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const image = (width: number, height: number, format: "png" | "jpeg" = "png") => {
  // A gradient, so resized and cropped copies differ from plain colour.
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = Math.floor((x / width) * 255);
      pixels[i + 1] = Math.floor((y / height) * 255);
      pixels[i + 2] = 128;
    }
  }
  const img = sharp(pixels, { raw: { width, height, channels: 3 } });
  return (format === "png" ? img.png() : img.jpeg()).toBuffer();
};

const rawUpload = (bytes: Buffer, filename: string, type = "image/png", extra: Record<string, string> = {}) =>
  s.request("POST", `${R}/core/v2/media`, {
    auth: "admin", raw: bytes, headers: { "content-type": type, "content-disposition": `attachment; filename="${filename}"`, ...extra },
  });

function multipart(fields: Record<string, string>, file?: { name: string; filename: string; type: string; bytes: Buffer }) {
  const boundary = `----media-test-${crypto.randomBytes(6).toString("hex")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.bytes, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { raw: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** Fetches a public file address from the router. */
const fetchFile = async (url: string) => {
  expect(url.startsWith(`${SITE}/wp-content/uploads/`)).toBe(true);
  const r = await fetch(s.url + url.slice(SITE.length));
  return { status: r.status, type: r.headers.get("content-type"), bytes: Buffer.from(await r.arrayBuffer()) };
};

const dims = async (bytes: Buffer) => {
  const m = await sharp(bytes).metadata();
  return [m.width, m.height];
};

const upload = async (width: number, height: number, filename: string, format: "png" | "jpeg" = "png"): Promise<TestResponse> => {
  const r = await rawUpload(await image(width, height, format), filename, format === "png" ? "image/png" : "image/jpeg");
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r;
};

const month = () => new Date().toISOString().slice(0, 7).replace("-", "/");

describe("uploading", () => {
  test("a raw PNG: 201 in edit context, Location, sub-sizes, and every file served with its bytes and type", async () => {
    const bytes = await image(640, 480);
    const r = await rawUpload(bytes, "photo.png");
    expect(r.status).toBe(201);
    const id = r.body.id;
    expect(r.headers.get("location")).toBe(`${SITE}/wp-json/core/v2/media/${id}`);
    expect(r.headers.get("x-wp-upload-attachment-id")).toBe(String(id));
    expect(Object.keys(r.body)).toEqual(["id", "date", "date_gmt", "guid", "modified", "modified_gmt", "slug", "status", "type", "link",
      "title", "author", "featured_media", "comment_status", "ping_status", "template", "meta", "permalink_template", "generated_slug",
      "description", "caption", "alt_text", "media_type", "mime_type", "media_details", "post", "source_url", "missing_image_sizes", "_links"]);
    const file = `${month()}/photo.png`;
    expect(r.body).toMatchObject({
      slug: "photo", status: "inherit", type: "attachment", title: { raw: "photo", rendered: "photo" }, author: 1,
      comment_status: "open", ping_status: "closed", meta: [], media_type: "image", mime_type: "image/png", post: null,
      link: `${SITE}/photo/`, source_url: `${SITE}/wp-content/uploads/${file}`, guid: { raw: `${SITE}/wp-content/uploads/${file}` },
      missing_image_sizes: [], caption: { raw: "", rendered: "" }, alt_text: "",
    });
    const details = r.body.media_details;
    expect(details).toMatchObject({ width: 640, height: 480, file, filesize: bytes.length });
    expect(Object.keys(details)).toEqual(["width", "height", "file", "filesize", "sizes", "image_meta"]);
    expect(Object.keys(details.sizes)).toEqual(["medium", "thumbnail", "full"]);
    expect(details.sizes.medium).toMatchObject({ file: "photo-300x225.png", width: 300, height: 225, mime_type: "image/png" });
    expect(Object.keys(details.sizes.medium)).toEqual(["file", "width", "height", "filesize", "mime_type", "source_url"]);
    expect(details.sizes.thumbnail).toMatchObject({ file: "photo-150x150.png", width: 150, height: 150 });
    expect(details.sizes.full).toEqual({ file: "photo.png", width: 640, height: 480, mime_type: "image/png", source_url: r.body.source_url });
    expect(details.image_meta.orientation).toBe("0");
    expect(r.body.description.rendered).toBe(`<p class="attachment"><a href='${r.body.source_url}'><img width="300" height="225" src="${details.sizes.medium.source_url}" class="attachment-medium size-medium" alt="" decoding="async" loading="lazy" srcset="${details.sizes.medium.source_url} 300w, ${r.body.source_url} 640w" sizes="(max-width: 300px) 100vw, 300px" /></a></p>\n`);
    expect(Object.keys(r.body._links)).toEqual(["self", "collection", "about", "author", "replies", "wp:action-unfiltered-html", "wp:action-assign-author", "curies"]);

    const original = await fetchFile(r.body.source_url);
    expect(original.status).toBe(200);
    expect(original.type).toBe("image/png");
    expect(original.bytes.equals(bytes)).toBe(true);
    for (const size of ["medium", "thumbnail"]) {
      const served = await fetchFile(details.sizes[size].source_url);
      expect(served.status).toBe(200);
      expect(served.bytes.length).toBe(details.sizes[size].filesize);
      expect(await dims(served.bytes)).toEqual([details.sizes[size].width, details.sizes[size].height]);
    }
    expect((await fetch(`${s.url}/wp-content/uploads/${month()}/nothing.png`)).status).toBe(404);
    expect((await fetch(`${s.url}/wp-content/uploads/..%2F..%2Fsecret-key`)).status).toBe(404);
  });

  test("the same name again gets -1; a name with spaces is sanitized; a big image gets a -scaled copy", async () => {
    const again = await upload(200, 100, "photo.png");
    expect(again.body.media_details.file).toBe(`${month()}/photo-1.png`);
    // A raw upload is titled after the stored name.
    expect(again.body.title.raw).toBe("photo-1");
    expect(again.body.slug).toBe("photo-1");
    const spaced = await upload(20, 20, "My Holiday (1).png");
    expect(spaced.body.media_details.file).toBe(`${month()}/My-Holiday-1.png`);
    expect(spaced.body.title.raw).toBe("My-Holiday-1");
    // Smaller than every registered size: no sizes, and then no `full` either.
    expect(spaced.body.media_details.sizes).toEqual({});

    const big = await upload(3000, 2000, "big.jpg", "jpeg");
    const details = big.body.media_details;
    expect(details).toMatchObject({ width: 2560, height: 1707, file: `${month()}/big-scaled.jpg`, original_image: "big.jpg" });
    expect(Object.keys(details.sizes)).toEqual(["medium", "large", "thumbnail", "medium_large", "1536x1536", "2048x2048", "full"]);
    expect(details.sizes.large).toMatchObject({ file: "big-1024x683.jpg", width: 1024, height: 683 });
    expect(details.sizes.full).toMatchObject({ file: "big-scaled.jpg", width: 2560, height: 1707 });
    expect(big.body.source_url).toBe(`${SITE}/wp-content/uploads/${month()}/big-scaled.jpg`);
    // The guid keeps the uploaded file's address.
    expect(big.body.guid.raw).toBe(`${SITE}/wp-content/uploads/${month()}/big.jpg`);
    expect(await dims((await fetchFile(big.body.source_url)).bytes)).toEqual([2560, 1707]);
    expect(await dims((await fetchFile(`${SITE}/wp-content/uploads/${month()}/big.jpg`)).bytes)).toEqual([3000, 2000]);
  });

  test("multipart: the `file` part plus form fields; the title falls back to the original file name", async () => {
    const bytes = await image(400, 300, "jpeg");
    const form = multipart({ title: "Seed image", alt_text: "A gradient", caption: "Seed caption", post: "1" }, { name: "file", filename: "seed-image.jpg", type: "image/jpeg", bytes });
    const r = await s.request("POST", `${R}/core/v2/media`, { auth: "admin", ...form });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      title: { raw: "Seed image" }, alt_text: "A gradient", caption: { raw: "Seed caption", rendered: "<p>Seed caption</p>\n" },
      post: 1, mime_type: "image/jpeg", link: `${SITE}/hello-world/seed-image/`, permalink_template: `${SITE}/hello-world/%postname%/`,
    });
    expect(r.body.description.rendered).toContain('alt="A gradient"');
    expect((await fetchFile(r.body.source_url)).bytes.equals(bytes)).toBe(true);

    const untitled = multipart({}, { name: "file", filename: "My Photo.jpg", type: "image/jpeg", bytes });
    const u = await s.request("POST", `${R}/core/v2/media`, { auth: "admin", ...untitled });
    expect(u.status).toBe(201);
    expect(u.body.title.raw).toBe("My Photo");
    expect(u.body.media_details.file).toBe(`${month()}/My-Photo.jpg`);
  });

  test("EXIF: the title, caption and image_meta of a photo come from its EXIF fields", async () => {
    const photo = await sharp(await image(64, 48, "jpeg"))
      .withExif({ IFD0: { ImageDescription: "Sunset over the bay", Model: "TestCam 1", Artist: "Jo", Copyright: "ACME" } })
      .jpeg().toBuffer();
    const r = await rawUpload(photo, "IMG_0001.jpg", "image/jpeg");
    expect(r.status).toBe(201);
    expect(r.body.title.raw).toBe("Sunset over the bay");
    expect(r.body.caption.raw).toBe("Sunset over the bay");
    expect(r.body.media_details.image_meta).toMatchObject({ title: "Sunset over the bay", camera: "TestCam 1", credit: "Jo", copyright: "ACME" });
    const given = await s.request("POST", `${R}/core/v2/media?title=Given`, {
      auth: "admin", raw: photo, headers: { "content-type": "image/jpeg", "content-disposition": "attachment; filename=IMG_0003.jpg" },
    });
    expect(given.body.title.raw).toBe("Given");
  });

  test("a photo taken sideways (EXIF orientation 6) is shown and sized upright from a -rotated copy", async () => {
    const sideways = await sharp(await image(60, 40, "jpeg")).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const r = await rawUpload(sideways, "sideways.jpg", "image/jpeg");
    expect(r.status).toBe(201);
    expect(r.body.media_details).toMatchObject({ width: 40, height: 60, file: `${month()}/sideways-rotated.jpg`, original_image: "sideways.jpg" });
    expect(r.body.media_details.image_meta.orientation).toBe("6");
    expect(await dims((await fetchFile(r.body.source_url)).bytes)).toEqual([40, 60]);
    const edited = await s.request("POST", `${R}/core/v2/media/${r.body.id}/edit`, {
      auth: "admin", body: { src: r.body.source_url, modifiers: [{ type: "crop", args: { left: 0, top: 0, width: 50, height: 100 } }] },
    });
    expect(edited.status).toBe(201);
    expect(edited.body.media_details).toMatchObject({ width: 20, height: 60, file: `${month()}/sideways-edited.jpg` });
  });

  test("a non-image file is a `file` with only its size in media_details", async () => {
    const r = await rawUpload(Buffer.from("hello, text\n"), "notes.txt", "text/plain");
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ media_type: "file", mime_type: "text/plain", media_details: { filesize: 12, sizes: {} }, missing_image_sizes: [] });
    expect(r.body.description.rendered).toBe(`<p class="attachment"><a href='${r.body.source_url}'>notes</a></p>\n`);
    const served = await fetchFile(r.body.source_url);
    expect(served.type).toBe("text/plain");
    expect(served.bytes.toString()).toBe("hello, text\n");
  });

  test("a file bigger than a default body limit (12 MB) travels to the subgraph and back intact", async () => {
    const bytes = crypto.randomBytes(12 * 1024 * 1024);
    const r = await rawUpload(bytes, "archive.zip", "application/zip");
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ mime_type: "application/zip", media_type: "file", media_details: { filesize: bytes.length } });
    const served = await fetchFile(r.body.source_url);
    expect(served.type).toBe("application/zip");
    expect(served.bytes.equals(bytes)).toBe(true);
  });

  test("upload errors in WordPress's order", async () => {
    const png = await image(10, 10);
    const expectError = (r: TestResponse, status: number, code: string, message?: string) => {
      expect(r.status).toBe(status);
      expect(r.body.code).toBe(code);
      if (message) expect(r.body.message).toBe(message);
    };
    // Permissions come first: anonymous gets 401 even with a bad body.
    expectError(await s.request("POST", `${R}/core/v2/media`, { raw: Buffer.alloc(0) }), 401, "rest_cannot_create");
    expectError(await s.request("POST", `${R}/core/v2/media`, { auth: "admin", raw: Buffer.alloc(0) }), 400, "rest_upload_no_data", "No data supplied.");
    expectError(await s.request("POST", `${R}/core/v2/media`, { auth: "admin", raw: png }), 400, "rest_upload_no_content_type", "No Content-Type supplied.");
    // Recording 065.
    const noDisposition = await s.request("POST", `${R}/core/v2/media`, { auth: "admin", raw: png, headers: { "content-type": "image/png" } });
    expect(noDisposition.status).toBe(400);
    expect(noDisposition.body).toEqual({ code: "rest_upload_no_content_disposition", message: "No Content-Disposition supplied.", data: { status: 400 } });
    expect(noDisposition.headers.get("allow")).toBe("GET, POST");
    expectError(await s.request("POST", `${R}/core/v2/media`, { auth: "admin", raw: png, headers: { "content-type": "image/png", "content-disposition": "attachment" } }),
      400, "rest_upload_invalid_disposition", "Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename=\"image.png\"` or similar.");
    expectError(await rawUpload(png, "x.png", "image/png", { "content-md5": "0".repeat(32) }), 412, "rest_upload_hash_mismatch", "Content hash did not match expected.");
    const md5 = crypto.createHash("md5").update(png).digest("hex");
    expect((await rawUpload(png, "hashed.png", "image/png", { "content-md5": md5 })).status).toBe(201);
    // A JSON body is not empty, so it misses the Content-Disposition.
    expectError(await s.request("POST", `${R}/core/v2/media`, { auth: "admin", body: { title: "x" } }), 400, "rest_upload_no_content_disposition");
    // Types WordPress does not allow, and images that are not images.
    expectError(await rawUpload(Buffer.from("<?php echo 1;"), "shell.php", "text/plain"), 500, "rest_upload_sideload_error", "Sorry, you are not allowed to upload this file type.");
    expectError(await rawUpload(Buffer.from("not an image"), "fake.png"), 500, "rest_upload_sideload_error");
    // Multipart without a file part has no raw body left: no data.
    const noFile = multipart({ title: "x" });
    expectError(await s.request("POST", `${R}/core/v2/media`, { auth: "admin", ...noFile }), 400, "rest_upload_no_data");
    const emptyFile = multipart({}, { name: "file", filename: "empty.png", type: "image/png", bytes: Buffer.alloc(0) });
    expectError(await s.request("POST", `${R}/core/v2/media`, { auth: "admin", ...emptyFile }), 500, "rest_upload_unknown_error");
    // Attaching to something that is not a post.
    const attachment = (await upload(10, 10, "parent.png")).body.id;
    expectError(await s.request("POST", `${R}/core/v2/media?post=${attachment}`, {
      auth: "admin", raw: png, headers: { "content-type": "image/png", "content-disposition": "attachment; filename=child.png" },
    }), 400, "rest_invalid_param", "Invalid parent type.");
    expectError(await s.request("POST", `${R}/core/v2/media?post=99999`, {
      auth: "admin", raw: png, headers: { "content-type": "image/png", "content-disposition": "attachment; filename=c.png" },
    }), 403, "rest_cannot_edit", "Sorry, you are not allowed to upload media to this post.");
  });
});

describe("reading and listing", () => {
  let pngId: number;
  let jpegId: number;
  let attachedId: number;
  beforeAll(async () => {
    pngId = (await upload(320, 240, "list-png.png")).body.id;
    jpegId = (await upload(320, 240, "list-jpeg.jpg", "jpeg")).body.id;
    const form = multipart({ post: "1" }, { name: "file", filename: "attached.png", type: "image/png", bytes: await image(50, 50) });
    attachedId = (await s.request("POST", `${R}/core/v2/media`, { auth: "admin", ...form })).body.id;
  });

  test("GET one in view context, shaped like recording 063", async () => {
    const r = await s.request("GET", `${R}/core/v2/media/${attachedId}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("allow")).toBe("GET");
    expect(r.headers.get("link")).toBe(`<${SITE}/hello-world/attached/>; rel="alternate"; type=text/html`);
    expect(Object.keys(r.body)).toEqual(["id", "date", "date_gmt", "guid", "modified", "modified_gmt", "slug", "status", "type", "link",
      "title", "author", "featured_media", "comment_status", "ping_status", "template", "meta", "description", "caption", "alt_text",
      "media_type", "mime_type", "media_details", "post", "source_url", "_links"]);
    expect(r.body.post).toBe(1);
    expect(r.body._links).toEqual({
      self: [{ href: `${SITE}/wp-json/core/v2/media/${attachedId}` }],
      collection: [{ href: `${SITE}/wp-json/core/v2/media` }],
      about: [{ href: `${SITE}/wp-json/core/v2/types/attachment` }],
      author: [{ embeddable: true, href: `${SITE}/wp-json/core/v2/users/1` }],
      replies: [{ embeddable: true, href: `${SITE}/wp-json/core/v2/comments?post=${attachedId}` }],
    });
    const embed = await s.request("GET", `${R}/core/v2/media/${attachedId}?context=embed`);
    expect(Object.keys(embed.body)).toEqual(["id", "date", "slug", "type", "link", "title", "author", "featured_media", "caption", "alt_text",
      "media_type", "mime_type", "media_details", "source_url", "_links"]);
    expect((await s.request("GET", `${R}/core/v2/media/${attachedId}?context=edit`)).status).toBe(401);
    expect((await s.request("GET", `${R}/core/v2/media/1`)).body.code).toBe("rest_post_invalid_id");
  });

  test("filters: media_type, mime_type, parent, parent_exclude, status", async () => {
    const ids = async (query: string, auth?: "admin") => {
      const r = await s.request("GET", `${R}/core/v2/media?per_page=100&${query}`, { auth });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body as { id: number }[]).map((m) => m.id);
    };
    const all = await ids("");
    expect(all).toEqual(expect.arrayContaining([pngId, jpegId, attachedId]));
    const images = await ids("media_type=image");
    expect(images).toEqual(expect.arrayContaining([pngId, jpegId]));
    const texts = await ids("media_type=text");
    expect(texts.length).toBeGreaterThan(0);
    expect(texts).not.toContain(pngId);
    const jpegs = await ids("mime_type=image/jpeg");
    expect(jpegs).toContain(jpegId);
    expect(jpegs).not.toContain(pngId);
    // A MIME type WordPress does not allow is ignored, as WordPress does.
    expect((await ids("mime_type=application/x-bogus")).length).toBe(all.length);
    expect(await ids("parent=1")).toContain(attachedId);
    expect(await ids("parent=1")).not.toContain(pngId);
    expect(await ids("parent_exclude=1")).not.toContain(attachedId);
    expect(await ids("search=list-jpeg")).toEqual([jpegId]);

    const bad = await s.request("GET", `${R}/core/v2/media?media_type=bogus`);
    expect(bad.status).toBe(400);
    expect(bad.body.data.params.media_type).toBe("media_type is not one of image, video, text, application, and audio.");
    const forbidden = await s.request("GET", `${R}/core/v2/media?status=private`);
    expect(forbidden.status).toBe(400);
    expect(forbidden.body.data.details.status.code).toBe("rest_forbidden_status");
    const wrong = await s.request("GET", `${R}/core/v2/media?status=publish`, { auth: "admin" });
    expect(wrong.body.data.params.status).toBe("status[0] is not one of inherit, private, and trash.");

    const privatized = await s.request("POST", `${R}/core/v2/media/${pngId}`, { auth: "admin", body: { status: "private" } });
    expect(privatized.body.status).toBe("private");
    expect(await ids("status=private", "admin")).toEqual([pngId]);
    expect(await ids("")).not.toContain(pngId);
    expect((await s.request("GET", `${R}/core/v2/media/${pngId}`)).status).toBe(401);
    // Any other settable status leaves an attachment inherit, as wp_insert_post does.
    expect((await s.request("POST", `${R}/core/v2/media/${pngId}`, { auth: "admin", body: { status: "publish" } })).body.status).toBe("inherit");

    const list = await s.request("GET", `${R}/core/v2/media?per_page=2`);
    expect(Number(list.headers.get("x-wp-total"))).toBe(all.length);
    expect(list.headers.get("link")).toContain('rel="next"');
  });

  test("attachments of a draft are hidden from those who cannot read the draft", async () => {
    const draft = await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body: { title: "Draft with media", status: "draft" } });
    const form = multipart({ post: String(draft.body.id) }, { name: "file", filename: "secret.png", type: "image/png", bytes: await image(20, 20) });
    const media = await s.request("POST", `${R}/core/v2/media`, { auth: "admin", ...form });
    expect(media.status).toBe(201);
    expect(media.body.link).toBe(`${SITE}/?attachment_id=${media.body.id}`);
    expect((await s.request("GET", `${R}/core/v2/media/${media.body.id}`)).status).toBe(401);
    expect((await s.request("GET", `${R}/core/v2/media/${media.body.id}`, { auth: "admin" })).status).toBe(200);
    const anonymous = await s.request("GET", `${R}/core/v2/media?parent=${draft.body.id}`);
    expect(anonymous.body).toEqual([]);
    expect(anonymous.headers.get("x-wp-total")).toBe("1");
  });

  test("update: fields, alt text, attaching; the route is not batchable", async () => {
    const r = await s.request("PATCH", `${R}/core/v2/media/${jpegId}`, {
      auth: "admin", body: { title: "Renamed", alt_text: "Alt", caption: { raw: "Cap" }, description: "Desc", post: 1, slug: "renamed-media" },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get("allow")).toBe("GET, POST, PUT, PATCH, DELETE");
    expect(r.body).toMatchObject({ title: { raw: "Renamed" }, alt_text: "Alt", caption: { raw: "Cap" }, description: { raw: "Desc" }, post: 1, slug: "renamed-media" });
    expect(r.body.description.rendered).toMatch(/<\/p>\n<p>Desc<\/p>\n$/);
    expect((await s.request("PATCH", `${R}/core/v2/media/${jpegId}`, { auth: "admin", body: { post: attachedId } })).body.message).toBe("Invalid parent type.");
    expect((await s.request("PATCH", `${R}/core/v2/media/${jpegId}`, { body: { title: "x" } })).status).toBe(401);

    const index = await s.request("GET", `${R}/core/v2`);
    const routes = index.body.routes;
    for (const pattern of ["/core/v2/media", "/core/v2/media/(?P<id>[\\d]+)", "/core/v2/media/(?P<id>[\\d]+)/post-process", "/core/v2/media/(?P<id>[\\d]+)/edit"]) {
      expect(routes[pattern], pattern).toBeDefined();
      for (const endpoint of routes[pattern].endpoints) expect(endpoint.allow_batch).toBeUndefined();
    }
    expect(routes["/core/v2/media"].endpoints[0].args.status.default).toBe("inherit");
    const batch = await s.request("POST", `${R}/batch/v1`, { auth: "admin", body: { requests: [{ method: "POST", path: `/core/v2/media/${jpegId}`, body: { title: "x" } }] } });
    expect(batch.body.responses[0].body.code).toBe("rest_batch_not_allowed");
  });
});

describe("editing", () => {
  let source: { id: number; source_url: string; title: { raw: string } };
  beforeAll(async () => { source = (await upload(320, 240, "recorder-upload.png")).body; });

  test("crop (recording 067): a new attachment {name}-edited.png with the cropped size", async () => {
    const r = await s.request("POST", `${R}/core/v2/media/${source.id}/edit`, {
      auth: "admin", body: { src: source.source_url, modifiers: [{ type: "crop", args: { left: 10, top: 10, width: 50, height: 50 } }] },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.headers.get("allow")).toBe("POST");
    expect(r.body.id).not.toBe(source.id);
    expect(r.headers.get("location")).toBe(`${SITE}/wp-json/core/v2/media/${r.body.id}`);
    expect(r.headers.get("x-wp-upload-attachment-id")).toBe(String(r.body.id));
    // The request's context (view): no raw fields.
    expect(r.body.title).toEqual({ rendered: "recorder-upload" });
    expect(r.body.post).toBeNull();
    expect(r.body.media_details).toMatchObject({
      width: 160, height: 120, file: `${month()}/recorder-upload-edited.png`,
      parent_image: { attachment_id: String(source.id), file: `${month()}/recorder-upload.png` },
    });
    expect(Object.keys(r.body.media_details.sizes)).toEqual(["thumbnail", "full"]);
    expect(r.body.media_details.sizes.thumbnail).toMatchObject({ file: "recorder-upload-edited-150x120.png", width: 150, height: 120 });
    expect(r.body.description.rendered).toBe(`<p class="attachment"><a href='${r.body.source_url}'><img width="160" height="120" src="${r.body.source_url}" class="attachment-medium size-medium" alt="" decoding="async" loading="lazy" /></a></p>\n`);
    const served = await fetchFile(r.body.source_url);
    expect(await dims(served.bytes)).toEqual([160, 120]);
    // The crop starts 10% in: its first pixel is the original's pixel at (32, 24).
    const original = await sharp((await fetchFile(source.source_url)).bytes).raw().toBuffer();
    const cropped = await sharp(served.bytes).raw().toBuffer();
    const channels = original.length / (320 * 240);
    expect([...cropped.subarray(0, 3)]).toEqual([...original.subarray((24 * 320 + 32) * channels, (24 * 320 + 32) * channels + 3)]);

    // Editing again (even the edited copy) normalises the suffix and makes the name unique.
    const again = await s.request("POST", `${R}/core/v2/media/${r.body.id}/edit`, {
      auth: "admin", body: { src: r.body.source_url, modifiers: [{ type: "crop", args: { left: 0, top: 0, width: 50, height: 50 } }] },
    });
    expect(again.status).toBe(201);
    expect(again.body.media_details.file).toBe(`${month()}/recorder-upload-edited-1.png`);
    expect(again.body.media_details).toMatchObject({ width: 80, height: 60 });
  });

  test("rotate 90 swaps width and height; the deprecated rotation field works too", async () => {
    const r = await s.request("POST", `${R}/core/v2/media/${source.id}/edit`, {
      auth: "admin", body: { src: source.source_url, modifiers: [{ type: "rotate", args: { angle: 90 } }] },
    });
    expect(r.status).toBe(201);
    expect(r.body.media_details).toMatchObject({ width: 240, height: 320 });
    expect(await dims((await fetchFile(r.body.source_url)).bytes)).toEqual([240, 320]);
    const legacy = await s.request("POST", `${R}/core/v2/media/${source.id}/edit`, {
      auth: "admin", body: { src: source.source_url, rotation: 270, x: 0, y: 0, width: 50, height: 100 },
    });
    expect(legacy.status).toBe(201);
    expect(legacy.body.media_details).toMatchObject({ width: 120, height: 320 });
  });

  test("edit errors: recordings 069 and 071, and WordPress's own checks", async () => {
    const missingAngle = await s.request("POST", `${R}/core/v2/media/${source.id}/edit`, {
      auth: "admin", body: { src: source.source_url, modifiers: [{ type: "rotate", args: {} }] },
    });
    expect(missingAngle.status).toBe(400);
    expect(missingAngle.body).toEqual({
      code: "rest_invalid_param", message: "Invalid parameter(s): modifiers",
      data: {
        status: 400,
        params: { modifiers: "modifiers[0] is not a valid Rotation. Reason: angle is a required property of modifiers[0][args]." },
        details: { modifiers: { code: "rest_no_matching_schema", message: "modifiers[0] is not a valid Rotation. Reason: angle is a required property of modifiers[0][args].", data: { position: 0 } } },
      },
    });
    const empty = await s.request("POST", `${R}/core/v2/media/${source.id}/edit`, { auth: "admin", body: { src: source.source_url, modifiers: [] } });
    expect(empty.body).toEqual({
      code: "rest_invalid_param", message: "Invalid parameter(s): modifiers",
      data: { status: 400, params: { modifiers: "modifiers must contain at least 1 item." }, details: { modifiers: { code: "rest_too_few_items", message: "modifiers must contain at least 1 item.", data: null } } },
    });
    const edit = (id: number, body: Record<string, unknown>, auth?: "admin") => s.request("POST", `${R}/core/v2/media/${id}/edit`, { auth, body });
    expect((await edit(source.id, {}, "admin")).body.code).toBe("rest_missing_callback_param");
    expect((await edit(source.id, { src: source.source_url, modifiers: [{ type: "rotate", args: { angle: 90 } }] })).body.code).toBe("rest_cannot_edit_image");
    expect((await edit(99999, { src: source.source_url, rotation: 90 }, "admin")).status).toBe(404);
    const unknown = await edit(source.id, { src: `${SITE}/wp-content/uploads/elsewhere.png`, rotation: 90 }, "admin");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("rest_unknown_attachment");
    const nothing = await edit(source.id, { src: source.source_url }, "admin");
    expect(nothing.status).toBe(400);
    expect(nothing.body.code).toBe("rest_image_not_edited");
    const text = (await rawUpload(Buffer.from("plain"), "plain.txt", "text/plain")).body;
    const notImage = await edit(text.id, { src: text.source_url, rotation: 90 }, "admin");
    expect(notImage.status).toBe(400);
    expect(notImage.body).toMatchObject({ code: "rest_cannot_edit_file_type", message: "This type of file cannot be edited." });
    expect((await edit(source.id, { src: source.source_url, rotation: 360 }, "admin")).body.data.params.rotation).toBe("rotation must be between 0 (exclusive) and 360 (exclusive)");
  });
});

describe("post-process and delete", () => {
  test("post-process: a bogus action is recording 073; create-image-subsizes remakes missing sizes", async () => {
    const media = (await upload(640, 480, "process.png")).body;
    const bogus = await s.request("POST", `${R}/core/v2/media/${media.id}/post-process`, { auth: "admin", body: { action: "bogus" } });
    expect(bogus.status).toBe(400);
    expect(bogus.body).toEqual({
      code: "rest_invalid_param", message: "Invalid parameter(s): action",
      data: { status: 400, params: { action: "action is not create-image-subsizes." }, details: { action: { code: "rest_not_in_enum", message: "action is not create-image-subsizes.", data: null } } },
    });
    expect((await s.request("POST", `${R}/core/v2/media/${media.id}/post-process`, { auth: "admin", body: {} })).body.code).toBe("rest_missing_callback_param");
    expect((await s.request("POST", `${R}/core/v2/media/${media.id}/post-process`, { body: { action: "create-image-subsizes" } })).status).toBe(401);

    // Lose the medium size (row and file), as after an interrupted upload.
    const row = await s.db.prisma.post.findUniqueOrThrow({ where: { id: media.id } });
    const meta = row.meta as { _wp_attachment_metadata: { sizes: Record<string, unknown> } };
    delete meta._wp_attachment_metadata.sizes.medium;
    await s.db.prisma.post.update({ where: { id: media.id }, data: { meta: meta as object } });
    fs.rmSync(path.join(dataDir, "uploads", month(), "process-300x225.png"));
    const before = await s.request("GET", `${R}/core/v2/media/${media.id}?context=edit`, { auth: "admin" });
    expect(before.body.missing_image_sizes).toEqual(["medium"]);
    expect((await fetchFile(media.media_details.sizes.medium.source_url)).status).toBe(404);

    const r = await s.request("POST", `${R}/core/v2/media/${media.id}/post-process`, { auth: "admin", body: { action: "create-image-subsizes" } });
    expect(r.status).toBe(200);
    expect(r.body.missing_image_sizes).toEqual([]);
    expect(r.body.title.raw).toBe("process");
    expect(r.body.media_details.sizes.medium).toMatchObject({ file: "process-300x225.png", width: 300, height: 225 });
    const served = await fetchFile(r.body.media_details.sizes.medium.source_url);
    expect(served.status).toBe(200);
    expect(await dims(served.bytes)).toEqual([300, 225]);
  });

  test("delete: no trash for media (501); force deletes the row and every file", async () => {
    const media = (await upload(640, 480, "doomed.png")).body;
    const noForce = await s.request("DELETE", `${R}/core/v2/media/${media.id}`, { auth: "admin" });
    expect(noForce.status).toBe(501);
    expect(noForce.body).toEqual({ code: "rest_trash_not_supported", message: "The post does not support trashing. Set 'force=true' to delete.", data: { status: 501 } });
    expect((await s.request("DELETE", `${R}/core/v2/media/${media.id}?force=true`)).status).toBe(401);
    const urls = [media.source_url, media.media_details.sizes.medium.source_url, media.media_details.sizes.thumbnail.source_url];
    for (const url of urls) expect((await fetchFile(url)).status).toBe(200);

    const forced = await s.request("DELETE", `${R}/core/v2/media/${media.id}?force=true`, { auth: "admin" });
    expect(forced.status).toBe(200);
    expect(forced.body.deleted).toBe(true);
    expect(forced.body.previous.id).toBe(media.id);
    expect(forced.body.previous.missing_image_sizes).toEqual([]);
    expect(forced.body.previous._links).toBeUndefined();
    for (const url of urls) expect((await fetchFile(url)).status).toBe(404);
    expect((await s.request("GET", `${R}/core/v2/media/${media.id}`)).status).toBe(404);
  });
});

describe("featured images", () => {
  test("featuredMedia through GraphQL without statements per post, and wp:featuredmedia through _embed", async () => {
    const media = (await upload(640, 480, "featured.png")).body;
    const post = await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body: { title: "With image", status: "publish", featured_media: media.id } });
    expect(post.body.featured_media).toBe(media.id);

    const r = await s.graphql<{ post: { featuredMedia: { id: string; sourceUrl: string; mediaType: string; mediaDetails: { width: number; sizes: { name: string }[] } } } }>(
      `query($id: ID!) { post(id: $id, idType: DATABASE_ID) { featuredMedia { id: databaseId sourceUrl mediaType mediaDetails { width sizes { name } } } } }`, { id: String(post.body.id) });
    expect(r.errors).toBeUndefined();
    expect(r.data!.post.featuredMedia).toMatchObject({ id: media.id, sourceUrl: media.source_url, mediaType: "image", mediaDetails: { width: 640 } });
    expect(r.data!.post.featuredMedia.mediaDetails.sizes.map((x) => x.name)).toEqual(["medium", "thumbnail", "full"]);

    const embed = await s.request("GET", `${R}/core/v2/posts/${post.body.id}?_embed`);
    const embedded = embed.body._embedded["wp:featuredmedia"][0];
    expect(embedded).toMatchObject({ id: media.id, media_type: "image", source_url: media.source_url });
    expect(embedded.description).toBeUndefined();

    for (let i = 0; i < 12; i++) {
      await s.request("POST", `${R}/core/v2/posts`, { auth: "admin", body: { title: `Featured ${i}`, status: "publish", featured_media: media.id } });
    }
    const query = `query($n: Int) { posts(perPage: $n) { nodes { id featuredMedia { id sourceUrl mediaDetails { width } } } } }`;
    const count = async (n: number) => {
      const before = s.db.statements();
      const result = await s.graphql<{ posts: { nodes: { featuredMedia: { id: string } | null }[] } }>(query, { n });
      expect(result.errors).toBeUndefined();
      expect(result.data!.posts.nodes.filter((p) => p.featuredMedia).length).toBeGreaterThanOrEqual(Math.min(n, 12));
      return s.db.statements() - before;
    };
    await count(3); // after the writes above, the first read reads the site options again (kept until a write)
    expect(await count(12)).toBe(await count(3));

    const list = await s.graphql<{ mediaItems: { totalCount: number; nodes: { id: string; post: number | null }[] } }>(
      `{ mediaItems(where: { mediaType: IMAGE, search: "featured" }) { totalCount nodes { id: databaseId post } } }`);
    expect(list.data!.mediaItems.nodes.map((n) => n.id)).toEqual([media.id]);
  });

  test("GraphQL upload: createMediaItem with base64 bytes", async () => {
    const bytes = await image(30, 20);
    const r = await s.graphql<{ createMediaItem: { id: string; title: { rendered: string }; mimeType: string; mediaDetails: { width: number; height: number } } }>(
      `mutation($file: MediaFileInput!) { createMediaItem(file: $file, input: { altText: "GraphQL" }) { id title { rendered } mimeType mediaDetails { width height } } }`,
      { file: { base64: bytes.toString("base64"), filename: "From GraphQL.png" } }, { auth: "admin" });
    expect(r.errors).toBeUndefined();
    expect(r.data!.createMediaItem).toMatchObject({ title: { rendered: "From GraphQL" }, mimeType: "image/png", mediaDetails: { width: 30, height: 20 } });
  });
});

describe("roles", () => {
  /** A user with one role and an application password, written straight to the database. */
  const userWith = async (role: string) => {
    const password = `${role}-app-password-0123456789`;
    await s.db.prisma.user.create({
      data: {
        login: role, email: `${role}@example.com`, name: role, nicename: role, roles: [role],
        applicationPasswords: { create: { name: "test", secretHash: hashAppPassword(password, s.config.secretKey) } },
      },
    });
    return { username: role, password };
  };

  test("contributors cannot upload or edit images; authors manage only their own media", async () => {
    const contributor = await userWith("contributor");
    const author = await userWith("author");
    const png = await image(40, 30);
    const headers = { "content-type": "image/png", "content-disposition": "attachment; filename=role.png" };
    const refused = await s.request("POST", `${R}/core/v2/media`, { auth: contributor, raw: png, headers });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "rest_cannot_create", message: "Sorry, you are not allowed to create posts as this user." });
    const adminMedia = (await upload(40, 30, "admins.png")).body;
    const noEdit = await s.request("POST", `${R}/core/v2/media/${adminMedia.id}/edit`, { auth: contributor, body: { src: adminMedia.source_url, rotation: 90 } });
    expect(noEdit.status).toBe(403);
    expect(noEdit.body.code).toBe("rest_cannot_edit_image");

    const own = await s.request("POST", `${R}/core/v2/media`, { auth: author, raw: png, headers });
    expect(own.status).toBe(201);
    expect(Object.keys(own.body._links)).not.toContain("wp:action-assign-author");
    expect((await s.request("PATCH", `${R}/core/v2/media/${own.body.id}`, { auth: author, body: { alt_text: "mine" } })).body.alt_text).toBe("mine");
    const others = await s.request("PATCH", `${R}/core/v2/media/${adminMedia.id}`, { auth: author, body: { alt_text: "theirs" } });
    expect(others.status).toBe(403);
    expect(others.body.code).toBe("rest_cannot_edit");
    expect((await s.request("DELETE", `${R}/core/v2/media/${adminMedia.id}?force=true`, { auth: author })).body.code).toBe("rest_cannot_delete");
    const claim = await s.request("POST", `${R}/core/v2/media?author=1`, { auth: author, raw: png, headers });
    expect(claim.status).toBe(403);
    expect(claim.body.code).toBe("rest_cannot_edit_others");
    const edited = await s.request("POST", `${R}/core/v2/media/${own.body.id}/edit`, { auth: author, body: { src: own.body.source_url, rotation: 90 } });
    expect(edited.status).toBe(201);
    expect(edited.body.author).toBe(own.body.author);
    expect((await s.request("DELETE", `${R}/core/v2/media/${own.body.id}?force=true`, { auth: author })).body.deleted).toBe(true);
  });
});
