<?php
// Installs the bench's WordPress and writes the bench site into it through WordPress's own
// functions (the counterpart of site-500.ts's seed): php wordpress-seed.php install|seed <site.json> <images dir>.
// Run with WORDPRESS_CONFIG and HTTP_HOST in the environment (Debian's wp-config.php reads them).
// `install` runs as wp-admin/install.php does (WP_INSTALLING); `seed` prints the administrator's
// application password as JSON.
[$script, $phase, $siteFile, $imagesDir] = $argv;
if ($phase === 'install') define('WP_INSTALLING', true);
require '/usr/share/wordpress/wp-load.php';

if ($phase === 'install') {
    require_once ABSPATH . 'wp-admin/includes/upgrade.php';
    wp_install('Bench', 'admin', 'admin@example.com', true, '', wp_generate_password(24));
    update_option('permalink_structure', '/%postname%/');
    exit(0);
}

require_once ABSPATH . 'wp-admin/includes/image.php';
$site = json_decode(file_get_contents($siteFile), true);
wp_set_current_user(1);
$check = function ($result) { if (is_wp_error($result)) { fwrite(STDERR, $result->get_error_message() . "\n"); exit(1); } return $result; };

$authors = [];
foreach ($site['authors'] as $a) {
    $authors[] = $check(wp_insert_user(['user_login' => $a['login'], 'user_pass' => wp_generate_password(24), 'user_email' => $a['email'],
        'display_name' => $a['name'], 'role' => $a['role'], 'description' => $a['description']]));
}
$categories = [];
foreach ($site['categories'] as $c) $categories[] = $check(wp_insert_term($c['name'], 'category', ['description' => $c['description']]))['term_id'];
$tags = [];
foreach ($site['tags'] as $t) $tags[] = $check(wp_insert_term($t['name'], 'post_tag'))['term_id'];
$images = [];
foreach ($site['images'] as $m) {
    $upload = wp_upload_bits($m['filename'], null, file_get_contents("$imagesDir/{$m['filename']}"));
    if ($upload['error']) { fwrite(STDERR, $upload['error'] . "\n"); exit(1); }
    $id = $check(wp_insert_attachment(['post_mime_type' => 'image/jpeg', 'post_title' => $m['title'], 'post_excerpt' => $m['caption'], 'post_status' => 'inherit'], $upload['file'], 0, true));
    wp_update_attachment_metadata($id, wp_generate_attachment_metadata($id, $upload['file']));
    update_post_meta($id, '_wp_attachment_image_alt', $m['alt']);
    $images[] = $id;
}
foreach ($site['posts'] as $p) {
    $date = str_replace('T', ' ', $p['dateGmt']);
    $id = $check(wp_insert_post(['post_title' => $p['title'], 'post_content' => $p['content'], 'post_excerpt' => $p['excerpt'], 'post_status' => 'publish',
        'post_author' => $authors[$p['author']], 'post_date' => $date, 'post_date_gmt' => $date, 'post_category' => [$categories[$p['category']]]], true));
    wp_set_object_terms($id, array_map(fn ($t) => $tags[$t], $p['tags']), 'post_tag');
    set_post_thumbnail($id, $images[$p['image']]);
}
[$password] = $check(WP_Application_Passwords::create_new_application_password(1, ['name' => 'bench']));
echo json_encode(['applicationPassword' => $password]), "\n";
