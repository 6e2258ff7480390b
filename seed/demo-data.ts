// What the demo site holds: people, topics and writing for a small security company's site, and
// the deliveries a gateway would have accounted. Plain data; seed.ts writes it.

export const AUTHORS = [
  { username: "maria", name: "Maria Keller", firstName: "Maria", lastName: "Keller", email: "maria@example.com", roles: ["editor"], description: "Runs the editorial team; writes about mail security and policy." },
  { username: "tom", name: "Tom Berger", firstName: "Tom", lastName: "Berger", email: "tom@example.com", roles: ["author"], description: "Support engineer. Turns tickets into how-tos." },
  { username: "lena", name: "Lena Vogel", firstName: "Lena", lastName: "Vogel", email: "lena@example.com", roles: ["author"], description: "Product manager for the gateway." },
];

export const CATEGORIES = [
  { slug: "news", name: "News", description: "Releases and company news." },
  { slug: "guides", name: "Guides", description: "Step-by-step help for administrators." },
  { slug: "security", name: "Security", description: "Threats we see and how the gateway meets them." },
  { slug: "phishing", name: "Phishing", description: "Phishing campaigns and defences.", parent: "security" },
];

export const TAGS = [
  { slug: "spam", name: "Spam" }, { slug: "dkim", name: "DKIM" }, { slug: "spf", name: "SPF" },
  { slug: "dmarc", name: "DMARC" }, { slug: "licensing", name: "Licensing" }, { slug: "release", name: "Release" },
  { slug: "tls", name: "TLS" }, { slug: "quarantine", name: "Quarantine" },
];

/** Title, category, tags and a lede; the body adds paragraphs common to its category. */
export const POSTS: { title: string; category: string; tags: string[]; lede: string }[] = [
  { title: "Gateway 5.3 is out", category: "news", tags: ["release"], lede: "Version 5.3 brings a faster scanner, a new quarantine view and the REST API v2." },
  { title: "How licences are counted", category: "guides", tags: ["licensing"], lede: "Every address that sent or received scanned mail in the last 30 days counts once." },
  { title: "Setting up SPF for your domain", category: "guides", tags: ["spf"], lede: "SPF tells receivers which servers may send mail for your domain." },
  { title: "DKIM keys: rotate them yearly", category: "guides", tags: ["dkim"], lede: "A signing key that never changes is a key that eventually leaks." },
  { title: "DMARC in monitoring mode first", category: "guides", tags: ["dmarc", "spf", "dkim"], lede: "Start with p=none, read the reports for a month, then tighten." },
  { title: "The invoice that was not an invoice", category: "phishing", tags: ["quarantine"], lede: "A wave of fake invoices used a lookalike domain registered the day before." },
  { title: "Why the quarantine digest matters", category: "security", tags: ["quarantine", "spam"], lede: "Users release the mail they need and report what slipped through." },
  { title: "Spam volumes in the first quarter", category: "security", tags: ["spam"], lede: "Spam fell by a fifth while targeted phishing rose." },
  { title: "TLS everywhere: enforcing transport encryption", category: "security", tags: ["tls"], lede: "Require TLS for partners who support it and see who does not." },
  { title: "Meet us at the security fair", category: "news", tags: [], lede: "Our team will be at booth 12 with live demos of the gateway." },
  { title: "Credential phishing through shared documents", category: "phishing", tags: ["quarantine"], lede: "Links to shared documents are the new attachment." },
  { title: "Reading the accounted-email report", category: "guides", tags: ["licensing"], lede: "The report lists every address, its first and last delivery and whether it counts." },
  { title: "Functional mailboxes and your licence", category: "guides", tags: ["licensing"], lede: "Shared mailboxes such as info@ are accounted but do not count toward the licence." },
  { title: "Gateway 5.2.4 maintenance release", category: "news", tags: ["release"], lede: "Fixes for the reporting export and a rare scanner timeout." },
  { title: "Lookalike domains: what to block", category: "phishing", tags: ["dmarc"], lede: "Blocking every lookalike is impossible; flagging them is not." },
  { title: "Our new support portal", category: "news", tags: [], lede: "Tickets, downloads and licence keys now live in one place." },
  { title: "Backscatter and how to stop it", category: "security", tags: ["spam", "spf"], lede: "Bounces for mail you never sent are a sign your domain is being spoofed." },
  { title: "Automating reports with the REST API", category: "guides", tags: ["licensing", "release"], lede: "Sign in once, then page through accounted emails as HAL or JSON-LD." },
  { title: "CEO fraud: the call that confirms", category: "phishing", tags: [], lede: "The best defence against payment fraud is a phone call to a known number." },
  { title: "Five settings to check after installing", category: "guides", tags: ["tls", "quarantine"], lede: "Relay restrictions, TLS, quarantine retention, admin contacts and backups." },
];

export const CATEGORY_PARAGRAPHS: Record<string, string[]> = {
  news: ["Customers on the maintenance plan receive the update automatically; others can download it from the support portal.", "As always, the release notes list every change."],
  guides: ["Each step below takes a few minutes and can be checked from the administration console.", "If something does not behave as described, our support team is happy to help."],
  security: ["The numbers come from anonymised statistics shared by gateways that opted in.", "The gateway's defaults already cover the cases described here; the settings mentioned tighten them further."],
  phishing: ["None of the messages carried malware, so signature scanners saw nothing wrong.", "Teach users to check the sender's domain, and report anything that looks off."],
};

export const PAGES = [
  { slug: "about", title: "About us", content: "We build an email security gateway that keeps spam, malware and phishing out of inboxes for thousands of organisations." },
  { slug: "team", title: "Our team", parent: "about", content: "Engineers, analysts and support staff in three offices, on call around the clock." },
  { slug: "contact", title: "Contact", content: "Write to hello@example.com or call +49 30 1234567, Monday to Friday, 9:00 to 17:00." },
];

export const LANGUAGES = [{ locale: "en_US", slug: "en" }, { locale: "fr_FR", slug: "fr" }];

export const MENU_NAME = "Main menu";

/** Domains and local parts of the addresses the gateway has seen; a few functional mailboxes. */
export const MAIL_DOMAINS = ["example.com", "corp.example", "partner.example"];
export const MAIL_USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"];
export const FUNCTIONAL_MAILBOXES = ["info", "sales", "support"];
