// Built-in locale table, the counterpart of Polylang's settings/languages.php: what a new
// language gets when only its locale is given (name, slug, text direction, flag), and the W3C
// and Facebook locales reported for it. Written from public locale data, not copied.

export interface LocaleInfo {
  /** Language code, the default slug (ISO 639-1 where one exists). */
  code: string;
  /** Native name. */
  name: string;
  rtl: boolean;
  /** Flag code (see flags.ts). */
  flag: string;
  /** Facebook locale. */
  facebook: string;
  /** W3C language tag, when it is not simply the locale with "_" turned into "-". */
  w3c?: string;
}

const ltr = (code: string, name: string, flag: string, facebook: string, w3c?: string): LocaleInfo =>
  ({ code, name, rtl: false, flag, facebook, ...(w3c ? { w3c } : {}) });
const rtl = (code: string, name: string, flag: string, facebook: string): LocaleInfo =>
  ({ code, name, rtl: true, flag, facebook });

export const LOCALES: Readonly<Record<string, LocaleInfo>> = {
  ar: rtl("ar", "العربية", "arab", "ar_AR"),
  bg_BG: ltr("bg", "български", "bg", "bg_BG"),
  ca: ltr("ca", "Català", "catalonia", "ca_ES"),
  cs_CZ: ltr("cs", "Čeština", "cz", "cs_CZ"),
  da_DK: ltr("da", "Dansk", "dk", "da_DK"),
  de_AT: ltr("de", "Deutsch", "at", "de_DE"),
  de_CH: ltr("de", "Deutsch", "ch", "de_DE"),
  de_CH_informal: ltr("de", "Deutsch", "ch", "de_DE", "de-CH"),
  de_DE: ltr("de", "Deutsch", "de", "de_DE"),
  de_DE_formal: ltr("de", "Deutsch", "de", "de_DE", "de-DE"),
  el: ltr("el", "Ελληνικά", "gr", "el_GR"),
  en_AU: ltr("en", "English", "au", "en_US"),
  en_CA: ltr("en", "English", "ca", "en_US"),
  en_GB: ltr("en", "English", "gb", "en_GB"),
  en_US: ltr("en", "English", "us", "en_US"),
  es_ES: ltr("es", "Español", "es", "es_ES"),
  es_MX: ltr("es", "Español de México", "mx", "es_MX"),
  fa_IR: rtl("fa", "فارسی", "ir", "fa_IR"),
  fi: ltr("fi", "Suomi", "fi", "fi_FI"),
  fr_BE: ltr("fr", "Français de Belgique", "be", "fr_FR"),
  fr_CA: ltr("fr", "Français du Canada", "quebec", "fr_CA"),
  fr_FR: ltr("fr", "Français", "fr", "fr_FR"),
  he_IL: rtl("he", "עברית", "il", "he_IL"),
  hi_IN: ltr("hi", "हिन्दी", "in", "hi_IN"),
  hu_HU: ltr("hu", "Magyar", "hu", "hu_HU"),
  id_ID: ltr("id", "Bahasa Indonesia", "id", "id_ID"),
  it_IT: ltr("it", "Italiano", "it", "it_IT"),
  ja: ltr("ja", "日本語", "jp", "ja_JP"),
  ko_KR: ltr("ko", "한국어", "kr", "ko_KR"),
  nb_NO: ltr("nb", "Norsk Bokmål", "no", "nb_NO"),
  nl_BE: ltr("nl", "Nederlands (België)", "be", "nl_BE"),
  nl_NL: ltr("nl", "Nederlands", "nl", "nl_NL"),
  pl_PL: ltr("pl", "Polski", "pl", "pl_PL"),
  pt_BR: ltr("pt", "Português", "br", "pt_BR"),
  pt_PT: ltr("pt", "Português", "pt", "pt_PT"),
  pt_PT_ao90: ltr("pt", "Português (AO90)", "pt", "pt_PT", "pt-PT"),
  ro_RO: ltr("ro", "Română", "ro", "ro_RO"),
  ru_RU: ltr("ru", "Русский", "ru", "ru_RU"),
  sk_SK: ltr("sk", "Slovenčina", "sk", "sk_SK"),
  sv_SE: ltr("sv", "Svenska", "se", "sv_SE"),
  th: ltr("th", "ไทย", "th", "th_TH"),
  tr_TR: ltr("tr", "Türkçe", "tr", "tr_TR"),
  uk: ltr("uk", "Українська", "ua", "uk_UA"),
  ur: rtl("ur", "اردو", "pk", "ur_PK"),
  vi: ltr("vi", "Tiếng Việt", "vn", "vi_VN"),
  zh_CN: ltr("zh", "中文 (中国)", "cn", "zh_CN"),
  zh_HK: ltr("zh", "中文 (香港)", "hk", "zh_HK"),
  zh_TW: ltr("zh", "中文 (台灣)", "tw", "zh_TW"),
};

export function findLocale(locale: string): LocaleInfo | undefined {
  return Object.hasOwn(LOCALES, locale) ? LOCALES[locale] : undefined;
}

/** W3C tag: from the table, else the locale with "_" turned into "-" (as Polylang does). */
export function w3cOf(locale: string): string {
  return findLocale(locale)?.w3c ?? locale.replace(/_/g, "-");
}

/** Facebook locale: from the table when the locale is known, else "". */
export function facebookOf(locale: string): string {
  return findLocale(locale)?.facebook ?? "";
}
