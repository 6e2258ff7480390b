// oEmbed providers WordPress sanctions (a selection of WP_oEmbed's built-in list): a URL that
// matches one is asked of the provider's endpoint without discovery, and its HTML is trusted
// (not filtered). Any other URL is asked through discovery, and its HTML is filtered.

export interface OEmbedProvider { pattern: RegExp; endpoint: string }

export const SANCTIONED_PROVIDERS: readonly OEmbedProvider[] = [
  { pattern: /^https?:\/\/((m|www)\.)?youtube\.com\/watch/i, endpoint: "https://www.youtube.com/oembed" },
  { pattern: /^https?:\/\/((m|www)\.)?youtube\.com\/(playlist|shorts|live)/i, endpoint: "https://www.youtube.com/oembed" },
  { pattern: /^https?:\/\/youtu\.be\/.+/i, endpoint: "https://www.youtube.com/oembed" },
  { pattern: /^https?:\/\/(.+\.)?vimeo\.com\/.+/i, endpoint: "https://vimeo.com/api/oembed.json" },
  { pattern: /^https?:\/\/(www\.)?dailymotion\.com\/.+/i, endpoint: "https://www.dailymotion.com/services/oembed" },
  { pattern: /^https?:\/\/dai\.ly\/.+/i, endpoint: "https://www.dailymotion.com/services/oembed" },
  { pattern: /^https?:\/\/(www\.)?flickr\.com\/.+/i, endpoint: "https://www.flickr.com/services/oembed/" },
  { pattern: /^https?:\/\/flic\.kr\/.+/i, endpoint: "https://www.flickr.com/services/oembed/" },
  { pattern: /^https?:\/\/(www\.)?soundcloud\.com\/.+/i, endpoint: "https://soundcloud.com/oembed" },
  { pattern: /^https?:\/\/(open|play)\.spotify\.com\/.+/i, endpoint: "https://embed.spotify.com/oembed/" },
  { pattern: /^https?:\/\/(www\.)?(twitter|x)\.com\/\w{1,15}\/status(es)?\/.+/i, endpoint: "https://publish.twitter.com/oembed" },
  { pattern: /^https?:\/\/((www|m)\.)?tiktok\.com\/.+/i, endpoint: "https://www.tiktok.com/oembed" },
  { pattern: /^https?:\/\/(www\.)?reddit\.com\/r\/[^/]+\/comments\/.+/i, endpoint: "https://www.reddit.com/oembed" },
  { pattern: /^https?:\/\/(www\.)?slideshare\.net\/.+/i, endpoint: "https://www.slideshare.net/api/oembed/2" },
  { pattern: /^https?:\/\/(www\.)?ted\.com\/talks\/.+/i, endpoint: "https://www.ted.com/services/v1/oembed.{format}" },
  { pattern: /^https?:\/\/(www\.)?mixcloud\.com\/.+/i, endpoint: "https://app.mixcloud.com/oembed/" },
  { pattern: /^https?:\/\/(.+\.)?tumblr\.com\/.+/i, endpoint: "https://www.tumblr.com/oembed/1.0" },
  { pattern: /^https?:\/\/(.+\.)?wordpress\.tv\/.+/i, endpoint: "https://wordpress.tv/oembed/" },
];

/** The endpoint of the sanctioned provider serving a URL (with `{format}` as json), if any. */
export function sanctionedEndpoint(url: string, providers: readonly OEmbedProvider[] = SANCTIONED_PROVIDERS): string | null {
  const provider = providers.find((p) => p.pattern.test(url));
  return provider ? provider.endpoint.replace("{format}", "json") : null;
}
