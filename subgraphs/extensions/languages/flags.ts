// Flags "bundled" with the languages extension: the ISO 3166-1 alpha-2 country codes plus the
// regional flags Polylang ships. A flag code is valid when it is in this list (Polylang checks
// that the flag file exists; custom flag uploads are not supported here).

const COUNTRIES = (
  "ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs bt bv bw by bz " +
  "ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg eh er es et fi fj fk fm fo fr " +
  "ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht hu id ie il im in io iq ir is it je jm jo jp " +
  "ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr ms mt " +
  "mu mv mw mx my mz na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw " +
  "sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug " +
  "um us uy uz va vc ve vg vi vn vu wf ws xk ye yt za zm zw"
).split(" ");

const REGIONS = ["arab", "basque", "catalonia", "england", "esperanto", "galicia", "kurdistan", "occitania", "quebec", "scotland", "tibet", "veneto", "wales"];

export const FLAG_CODES: ReadonlySet<string> = new Set([...COUNTRIES, ...REGIONS]);

export const isKnownFlag = (code: string): boolean => FLAG_CODES.has(code);

/** Where the flag images are served from, relative to the site address. */
export const FLAGS_PATH = "/wp-content/plugins/polylang/vendor/wpsyntex/flags";
export const FLAG_WIDTH = 18;
export const FLAG_HEIGHT = 12;
