// The GraphQL lists hold the same bounds as the REST routes (lib/wordpress/limits.ts), so a caller
// that skips REST validation gets a 400 user error naming the argument, never an internal error;
// and the viewer's permission fields answer per role what the operations themselves allow.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEFAULT_PER_PAGE, PER_PAGE_MAX } from "../../lib/wordpress/limits.ts";
import { createUserWithPassword } from "../helpers/users.ts";
import { startTestSystem, type RequestOptions, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
type Auth = RequestOptions["auth"];
const ROLES = ["subscriber", "contributor", "author", "editor", "administrator"] as const;
const as: Partial<Record<(typeof ROLES)[number], Auth>> = {};

const userWithRole = async (role: string): Promise<Auth> => (await createUserWithPassword(s, `${role}-user`, [role])).auth;

beforeAll(async () => {
  s = await startTestSystem();
  for (const role of ROLES) as[role] = role === "administrator" ? "admin" : await userWithRole(role);
});
afterAll(async () => { await s?.stop(); });

/** The first error of a query, which must have no data for the list. */
async function errorOf(query: string, auth: Auth = "admin") {
  const r = await s.graphql(query, {}, { auth });
  expect(r.errors, query).toBeDefined();
  return r.errors![0];
}

describe("list bounds over GraphQL", () => {
  // Every paged list (with its required arguments); administrators pass every permission check.
  const lists: [string, string][] = [
    ["posts", ""], ["pages", ""], ["mediaItems", ""], ["menuItems", ""], ["menus", ""], ["categories", ""], ["tags", ""],
    ["users", ""], ["postRevisions", "parent: 1, "], ["pageRevisions", "parent: 2, "],
  ];

  test.each(lists)("%s: perPage 0 and 101, page 0 and a negative offset are 400 rest_invalid_param", async (list, required) => {
    for (const [args, param, reason] of [
      ["perPage: 0", "perPage", `perPage must be between 1 (inclusive) and ${PER_PAGE_MAX} (inclusive)`],
      [`perPage: ${PER_PAGE_MAX + 1}`, "perPage", `perPage must be between 1 (inclusive) and ${PER_PAGE_MAX} (inclusive)`],
      ["page: 0", "page", "page must be greater than or equal to 1"],
      ["offset: -1", "offset", "offset must be greater than or equal to 0"],
    ]) {
      const error = await errorOf(`{ ${list}(${required}${args}) { totalPages } }`);
      expect(error.message).toBe(`Invalid parameter(s): ${param}`);
      expect(error.extensions).toMatchObject({
        code: "rest_invalid_param", status: 400,
        data: { params: { [param]: reason }, details: { [param]: { code: "rest_out_of_bounds", message: reason } } },
      });
    }
  });

  test("the issue's example: posts(perPage: 0) { totalPages } is a user error, 100 is accepted", async () => {
    const zero = await s.graphql(`{ posts(perPage: 0) { totalPages } }`);
    expect(zero.errors?.[0].extensions).toMatchObject({ code: "rest_invalid_param", status: 400 });
    expect(zero.errors?.[0].extensions?.code).not.toBe("INTERNAL_SERVER_ERROR");
    const max = await s.graphql<{ posts: { totalPages: number } }>(`{ posts(perPage: ${PER_PAGE_MAX}) { totalPages } }`);
    expect(max.errors).toBeUndefined();
    expect(max.data?.posts.totalPages).toBe(1);
  });

  test("cursor paging: first out of bounds and a malformed after are user errors; a good cursor pages on", async () => {
    for (const list of ["posts", "pages", "mediaItems", "menuItems"]) {
      for (const first of [0, PER_PAGE_MAX + 1]) {
        expect((await errorOf(`{ ${list}(first: ${first}) { totalCount } }`)).extensions).toMatchObject({ code: "rest_invalid_param", status: 400, data: { params: { first: expect.any(String) } } });
      }
      for (const after of ["not a cursor", Buffer.from(`offset:${"9".repeat(23)}`).toString("base64")]) {
        expect((await errorOf(`{ ${list}(first: 1, after: "${after}") { totalCount } }`)).extensions).toMatchObject({ code: "rest_invalid_param", status: 400, data: { params: { after: "after is not a valid cursor." } } });
      }
    }
    const page = await s.graphql<{ pages: { nodes: { id: string }[]; pageInfo: { endCursor: string; hasNextPage: boolean } } }>(
      `{ pages(first: 1, where: { status: [PUBLISH, DRAFT] }) { nodes { id } pageInfo { endCursor hasNextPage } } }`, {}, { auth: "admin" });
    expect(page.data?.pages.pageInfo.hasNextPage).toBe(true);
    const next = await s.graphql<{ pages: { nodes: { id: string }[] } }>(
      `query($after: String) { pages(first: 1, after: $after, where: { status: [PUBLISH, DRAFT] }) { nodes { id } } }`, { after: page.data?.pages.pageInfo.endCursor }, { auth: "admin" });
    expect(next.data?.pages.nodes[0].id).not.toBe(page.data?.pages.nodes[0].id);
  });

  test("bounds are checked before permission, as WordPress validates arguments first", async () => {
    const menuItems = await errorOf(`{ menuItems(perPage: 0) { totalCount } }`, undefined);
    expect(menuItems.extensions).toMatchObject({ code: "rest_invalid_param", status: 400 });
    const users = await errorOf(`{ users(perPage: 0, where: { roles: ["editor"] }) { totalCount } }`, undefined);
    expect(users.extensions).toMatchObject({ code: "rest_invalid_param", status: 400 });
  });

  test("without perPage a list takes its default from the same constants", async () => {
    for (let i = 0; i < DEFAULT_PER_PAGE.pages; i++) {
      expect((await s.request("POST", "/wp-json/core/v2/pages", { auth: "admin", body: { title: `Page ${i}`, status: "publish" } })).status).toBe(201);
    }
    const pages = await s.graphql<{ pages: { nodes: unknown[]; totalCount: number; totalPages: number } }>(`{ pages { nodes { id } totalCount totalPages } }`);
    expect(pages.data?.pages).toMatchObject({ totalCount: DEFAULT_PER_PAGE.pages + 1, totalPages: 2 });
    expect(pages.data?.pages.nodes).toHaveLength(DEFAULT_PER_PAGE.pages);
  });

  test("the REST routes answer the same bounds as WordPress does", async () => {
    const r = await s.request("GET", "/wp-json/core/v2/posts?per_page=101");
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("rest_invalid_param");
  });
});

describe("what the viewer may do", () => {
  const FLAGS = [
    "createPosts", "createPages", "uploadFiles", "readMenus", "editMenus", "listUsers", "createUsers", "editUsers", "deleteUsers",
    "manageOptions", "manageCategories", "manageTags", "manageTerms", "manageOwnApplicationPasswords", "manageApplicationPasswords",
  ] as const;
  type Flags = Record<(typeof FLAGS)[number], boolean>;
  const viewerCan = async (auth: Auth): Promise<Flags> =>
    (await s.graphql<{ viewerCan: Flags }>(`{ viewerCan { ${FLAGS.join(" ")} } }`, {}, { auth })).data!.viewerCan;
  const only = (...granted: (typeof FLAGS)[number][]): Flags => Object.fromEntries(FLAGS.map((f) => [f, granted.includes(f)])) as Flags;

  test("viewerCan per role, as WordPress's roles grant the capabilities each controller checks; all false for visitors", async () => {
    expect(await viewerCan(undefined)).toEqual(only());
    // Everyone signed in manages their own application passwords (edit_user of themselves).
    const own = "manageOwnApplicationPasswords";
    expect(await viewerCan(as.subscriber)).toEqual(only(own));
    expect(await viewerCan(as.contributor)).toEqual(only("createPosts", "readMenus", own));
    expect(await viewerCan(as.author)).toEqual(only("createPosts", "uploadFiles", "readMenus", own));
    expect(await viewerCan(as.editor)).toEqual(only("createPosts", "createPages", "uploadFiles", "readMenus", "manageCategories", "manageTags", "manageTerms", own));
    expect(await viewerCan(as.administrator)).toEqual(only(...FLAGS));
  });

  test("each flag agrees with what the operation it stands for does, for every role", async () => {
    let n = 0;
    // Menus assigned to a location are public over GraphQL: readMenus is about the others.
    const unlocated = await s.request("POST", "/wp-json/core/v2/menus", { auth: "admin", body: { name: "Probe menu" } });
    expect(unlocated.status).toBe(201);
    // Each probe runs the operation and reports whether it was allowed (a refusal is 401/403).
    const probes: [keyof Flags, string][] = [
      ["createPosts", `mutation { createPost(input: { title: "p" }) { id } }`],
      ["createPages", `mutation { createPage(input: { title: "p" }) { id } }`],
      ["readMenus", `{ menu(id: ${unlocated.body.id}, idType: DATABASE_ID) { name } }`],
      ["editMenus", `mutation { createMenu(input: { name: "menu-NAME" }) { id } }`],
      ["listUsers", `{ users(editing: true) { totalCount } }`],
      ["createUsers", `mutation { createUser(input: { username: "u-NAME", email: "u-NAME@example.com", password: "pass word 1" }) { id } }`],
      ["manageOptions", `{ siteSettings { title } }`],
      ["manageCategories", `mutation { createCategory(input: { name: "c-NAME" }) { id } }`],
      ["manageTags", `mutation { createTag(input: { name: "t-NAME" }) { id } }`],
      ["manageOwnApplicationPasswords", `{ applicationPasswords { uuid } }`],
      // User 1 is the administrator: someone else for every other role.
      ["manageApplicationPasswords", `{ applicationPasswords(userId: 1) { uuid } }`],
    ];
    for (const role of [undefined, ...ROLES]) {
      const auth = role && as[role];
      const flags = await viewerCan(auth);
      for (const [flag, operation] of probes) {
        const r = await s.graphql(operation.replaceAll("NAME", String(++n)), {}, { auth });
        const refused = r.errors?.some((e) => e.extensions?.status === 401 || e.extensions?.status === 403) ?? false;
        if (!refused) expect(r.errors, `${flag} as ${role ?? "visitor"}`).toBeUndefined();
        expect(!refused, `${flag} as ${role ?? "visitor"}`).toBe(flags[flag]);
      }
    }
  });

  test("languagesViewerCan.manage is for administrators only (manage_options); false for visitors", async () => {
    const anon = await s.graphql<{ languagesViewerCan: { manage: boolean } }>(`{ languagesViewerCan { manage } }`);
    expect(anon.data?.languagesViewerCan.manage).toBe(false);
    for (const role of ROLES) {
      const r = await s.graphql<{ languagesViewerCan: { manage: boolean } }>(`{ languagesViewerCan { manage } }`, {}, { auth: as[role] });
      expect(r.data?.languagesViewerCan.manage, role).toBe(role === "administrator");
    }
  });
});
