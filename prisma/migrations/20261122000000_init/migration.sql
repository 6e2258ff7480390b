-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "TranslatableType" AS ENUM ('POST', 'PAGE', 'NAV_MENU_ITEM', 'CATEGORY', 'POST_TAG');

-- CreateTable
CREATE TABLE "ConsentScan" (
    "id" SERIAL NOT NULL,
    "token" TEXT,
    "status" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ConsentScan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConsentCategory" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConsentCategory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConsentCookie" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "duration" TEXT NOT NULL DEFAULT '',
    "type" TEXT NOT NULL DEFAULT '',
    "firstFoundUrl" TEXT NOT NULL DEFAULT '',
    "categoryId" INTEGER NOT NULL,
    "scanId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConsentCookie_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConsentFeedback" (
    "id" SERIAL NOT NULL,
    "reasonId" TEXT NOT NULL,
    "reasonText" TEXT NOT NULL DEFAULT '',
    "reasonInfo" TEXT NOT NULL DEFAULT '',
    "payload" JSONB NOT NULL,
    "delivered" BOOLEAN NOT NULL DEFAULT false,
    "userId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ConsentFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "login" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nicename" TEXT NOT NULL,
    "url" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "passwordHash" TEXT,
    "roles" TEXT[],
    "registeredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "meta" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApplicationPassword" (
    "uuid" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "appId" TEXT NOT NULL DEFAULT '',
    "secretHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "lastIp" TEXT,

    CONSTRAINT "ApplicationPassword_pkey" PRIMARY KEY ("uuid")
);

-- CreateTable
CREATE TABLE "OAuthClient" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "redirectUris" TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthClient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OAuthAuthorizationCode" (
    "codeHash" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "codeChallenge" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OAuthAuthorizationCode_pkey" PRIMARY KEY ("codeHash")
);

-- CreateTable
CREATE TABLE "OAuthToken" (
    "tokenHash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "scope" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OAuthToken_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "Post" (
    "id" SERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "slug" TEXT NOT NULL DEFAULT '',
    "title" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL DEFAULT '',
    "excerpt" TEXT NOT NULL DEFAULT '',
    "password" TEXT NOT NULL DEFAULT '',
    "authorId" INTEGER NOT NULL DEFAULT 0,
    "date" TIMESTAMP(3) NOT NULL,
    "dateGmt" TIMESTAMP(3),
    "modified" TIMESTAMP(3) NOT NULL,
    "modifiedGmt" TIMESTAMP(3) NOT NULL,
    "parentId" INTEGER NOT NULL DEFAULT 0,
    "menuOrder" INTEGER NOT NULL DEFAULT 0,
    "commentStatus" TEXT NOT NULL DEFAULT 'open',
    "pingStatus" TEXT NOT NULL DEFAULT 'open',
    "sticky" BOOLEAN NOT NULL DEFAULT false,
    "template" TEXT NOT NULL DEFAULT '',
    "format" TEXT NOT NULL DEFAULT 'standard',
    "featuredMedia" INTEGER NOT NULL DEFAULT 0,
    "mimeType" TEXT NOT NULL DEFAULT '',
    "guid" TEXT NOT NULL DEFAULT '',
    "meta" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "Post_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Term" (
    "id" SERIAL NOT NULL,
    "taxonomy" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "parentId" INTEGER NOT NULL DEFAULT 0,
    "meta" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "Term_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PostTerm" (
    "postId" INTEGER NOT NULL,
    "termId" INTEGER NOT NULL,
    "termOrder" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "PostTerm_pkey" PRIMARY KEY ("postId","termId")
);

-- CreateTable
CREATE TABLE "Option" (
    "name" TEXT NOT NULL,
    "value" JSONB NOT NULL,

    CONSTRAINT "Option_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "DownloadPackage" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "fileUrl" TEXT NOT NULL DEFAULT '',
    "captchaLock" BOOLEAN NOT NULL DEFAULT false,
    "viewCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DownloadPackage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DownloadPassword" (
    "id" SERIAL NOT NULL,
    "packageId" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "usageLimit" INTEGER NOT NULL DEFAULT 0,
    "uses" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "DownloadPassword_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DownloadKey" (
    "keyHash" TEXT NOT NULL,
    "packageId" INTEGER NOT NULL,
    "usesLeft" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DownloadKey_pkey" PRIMARY KEY ("keyHash")
);

-- CreateTable
CREATE TABLE "Language" (
    "termId" SERIAL NOT NULL,
    "termLanguageId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "isRtl" BOOLEAN NOT NULL DEFAULT false,
    "termGroup" INTEGER NOT NULL DEFAULT 0,
    "flagCode" TEXT NOT NULL DEFAULT '',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "fallbacks" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Language_pkey" PRIMARY KEY ("termId")
);

-- CreateTable
CREATE TABLE "LanguageSettings" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "browser" BOOLEAN NOT NULL DEFAULT false,
    "rewrite" BOOLEAN NOT NULL DEFAULT true,
    "hideDefault" BOOLEAN NOT NULL DEFAULT true,
    "forceLang" INTEGER NOT NULL DEFAULT 1,
    "redirectLang" BOOLEAN NOT NULL DEFAULT false,
    "mediaSupport" BOOLEAN NOT NULL DEFAULT false,
    "sync" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "postTypes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "taxonomies" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "domains" JSONB NOT NULL DEFAULT '{}',
    "defaultLang" TEXT NOT NULL DEFAULT '',
    "navMenus" JSONB NOT NULL DEFAULT '{}',
    "firstActivation" INTEGER NOT NULL,
    "version" TEXT NOT NULL,
    "previousVersion" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "LanguageSettings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LanguageAssignment" (
    "objectType" "TranslatableType" NOT NULL,
    "objectId" INTEGER NOT NULL,
    "languageId" INTEGER NOT NULL,
    "groupId" INTEGER,

    CONSTRAINT "LanguageAssignment_pkey" PRIMARY KEY ("objectType","objectId")
);

-- CreateTable
CREATE TABLE "TranslationGroup" (
    "id" SERIAL NOT NULL,
    "objectType" "TranslatableType" NOT NULL,

    CONSTRAINT "TranslationGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Form" (
    "id" SERIAL NOT NULL,
    "title" TEXT NOT NULL,
    "emailAction" JSONB NOT NULL DEFAULT '{}',
    "nextSeqNum" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Form_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FormField" (
    "id" SERIAL NOT NULL,
    "formId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "order" INTEGER NOT NULL DEFAULT 0,
    "crmContactId" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "FormField_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FormSubmission" (
    "id" SERIAL NOT NULL,
    "formId" INTEGER NOT NULL,
    "seqNum" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "values" JSONB NOT NULL DEFAULT '{}',
    "extra" JSONB NOT NULL DEFAULT '{}',
    "email" TEXT,
    "crmContactId" TEXT,
    "submitterId" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FormSubmission_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FormsOption" (
    "name" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "FormsOption_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "FormsMail" (
    "id" SERIAL NOT NULL,
    "submissionId" INTEGER NOT NULL,
    "to" TEXT[],
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "headers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FormsMail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayConfiguration" (
    "section" TEXT NOT NULL,
    "applied" JSONB,
    "pending" JSONB,
    "appliedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GatewayConfiguration_pkey" PRIMARY KEY ("section")
);

-- CreateTable
CREATE TABLE "GatewayAuditEntry" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "section" TEXT NOT NULL,
    "userId" INTEGER,
    "username" TEXT NOT NULL,
    "nodeUid" TEXT NOT NULL,
    "changeset" JSONB NOT NULL,

    CONSTRAINT "GatewayAuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayClusterNode" (
    "id" SERIAL NOT NULL,
    "uid" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "local" BOOLEAN NOT NULL DEFAULT false,
    "cloud" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stateChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3),

    CONSTRAINT "GatewayClusterNode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayDomain" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "tenant" TEXT,
    "dkimSelector" TEXT NOT NULL DEFAULT 'default',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "trialStartedAt" TIMESTAMP(3),
    "trialEndsAt" TIMESTAMP(3),

    CONSTRAINT "GatewayDomain_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayCertificate" (
    "id" SERIAL NOT NULL,
    "commonName" TEXT NOT NULL,
    "nodeUid" TEXT NOT NULL,
    "issuedBy" TEXT NOT NULL,
    "notBefore" TIMESTAMP(3) NOT NULL,
    "notAfter" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GatewayCertificate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayEvent" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "subject" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "nodeUid" TEXT,
    "dedupeKey" TEXT,

    CONSTRAINT "GatewayEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayUserProfile" (
    "userId" INTEGER NOT NULL,
    "fullName" TEXT NOT NULL DEFAULT '',
    "identityProvider" TEXT NOT NULL DEFAULT 'local',
    "otpSecret" TEXT,
    "otpEnabledAt" TIMESTAMP(3),
    "otpLastStep" INTEGER,
    "aliases" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "GatewayUserProfile_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "GatewayLoginToken" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "GatewayLoginToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayGroupImport" (
    "id" SERIAL NOT NULL,
    "connector" TEXT NOT NULL,
    "groupName" TEXT NOT NULL,
    "addGroupEmailToUsers" BOOLEAN NOT NULL DEFAULT true,
    "createFunctionalUserForGroups" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastRunAt" TIMESTAMP(3),

    CONSTRAINT "GatewayGroupImport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayFunctionalUser" (
    "id" SERIAL NOT NULL,
    "email" TEXT NOT NULL,
    "groupName" TEXT NOT NULL,
    "connector" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GatewayFunctionalUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayUser" (
    "id" SERIAL NOT NULL,
    "username" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "roles" TEXT[],
    "email" TEXT,
    "domains" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GatewayUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewaySession" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "secretHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "GatewaySession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AccountedEmail" (
    "id" SERIAL NOT NULL,
    "address" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'address',
    "domain" TEXT NOT NULL,
    "firstSeenOn" TIMESTAMP(3) NOT NULL,
    "lastSeenOn" TIMESTAMP(3) NOT NULL,
    "deliveryCount" INTEGER NOT NULL DEFAULT 0,
    "expiresOn" TIMESTAMP(3) NOT NULL,
    "accounted" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "AccountedEmail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayMessage" (
    "id" TEXT NOT NULL,
    "messageId" TEXT,
    "receivedOn" TIMESTAMP(3) NOT NULL,
    "sentOn" TIMESTAMP(3),
    "sender" TEXT NOT NULL,
    "headerFrom" TEXT NOT NULL,
    "headerFromAddress" TEXT NOT NULL,
    "recipients" TEXT[],
    "senderIp" TEXT,
    "hostname" TEXT NOT NULL,
    "nodeId" TEXT,
    "direction" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "result" TEXT NOT NULL,
    "deliveryResult" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "hasAttachments" BOOLEAN NOT NULL DEFAULT false,
    "state" TEXT NOT NULL DEFAULT 'none',
    "quarantined" BOOLEAN NOT NULL DEFAULT false,
    "uriHosts" TEXT[],
    "releasedAt" TIMESTAMP(3),
    "releasedBy" TEXT,
    "releaseSender" TEXT,
    "headers" JSONB,
    "ingestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GatewayMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayMessageAddress" (
    "messageId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "receivedOn" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GatewayMessageAddress_pkey" PRIMARY KEY ("messageId","address","role")
);

-- CreateTable
CREATE TABLE "GatewayMessageUriHost" (
    "messageId" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "receivedOn" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GatewayMessageUriHost_pkey" PRIMARY KEY ("messageId","host")
);

-- CreateTable
CREATE TABLE "GatewayAttachment" (
    "id" SERIAL NOT NULL,
    "messageId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "content" TEXT,

    CONSTRAINT "GatewayAttachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayScanAnalysis" (
    "messageId" TEXT NOT NULL,
    "verdict" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "details" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GatewayScanAnalysis_pkey" PRIMARY KEY ("messageId")
);

-- CreateTable
CREATE TABLE "GatewayMessageReport" (
    "id" SERIAL NOT NULL,
    "messageId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "reportedBy" TEXT NOT NULL,
    "reportedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "learning" JSONB NOT NULL,

    CONSTRAINT "GatewayMessageReport_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewaySenderReputation" (
    "address" TEXT NOT NULL,
    "goodWeight" INTEGER NOT NULL DEFAULT 0,
    "badWeight" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GatewaySenderReputation_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "GatewayRestrictedSender" (
    "id" SERIAL NOT NULL,
    "sender" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "restrictedAt" TIMESTAMP(3) NOT NULL,
    "lastMessageAt" TIMESTAMP(3) NOT NULL,
    "messageCount" INTEGER NOT NULL DEFAULT 1,
    "lastMessageId" TEXT,

    CONSTRAINT "GatewayRestrictedSender_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayMessageCounter" (
    "name" TEXT NOT NULL,
    "value" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "GatewayMessageCounter_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "GatewayPurgeJob" (
    "id" SERIAL NOT NULL,
    "criteria" JSONB NOT NULL,
    "cursorAt" TIMESTAMP(3),
    "cursorId" TEXT,
    "total" INTEGER NOT NULL,
    "purged" INTEGER NOT NULL DEFAULT 0,
    "state" TEXT NOT NULL DEFAULT 'running',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "GatewayPurgeJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RedirectionItem" (
    "id" SERIAL NOT NULL,
    "url" TEXT NOT NULL,
    "matchUrl" TEXT NOT NULL,
    "matchData" JSONB,
    "regex" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "lastCount" INTEGER NOT NULL DEFAULT 0,
    "lastAccess" TIMESTAMP(3) NOT NULL DEFAULT '1970-01-01 00:00:00 +00:00',
    "groupId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "actionType" TEXT NOT NULL,
    "actionCode" INTEGER NOT NULL,
    "actionData" TEXT,
    "matchType" TEXT NOT NULL,
    "title" TEXT,

    CONSTRAINT "RedirectionItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RedirectionGroup" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "moduleId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'enabled',
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RedirectionGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RedirectionLog" (
    "id" SERIAL NOT NULL,
    "created" TIMESTAMP(3) NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT,
    "sentTo" TEXT,
    "agent" TEXT,
    "referrer" TEXT,
    "httpCode" INTEGER NOT NULL DEFAULT 0,
    "requestMethod" TEXT,
    "requestData" TEXT,
    "redirectBy" TEXT,
    "redirectionId" INTEGER,
    "ip" TEXT,

    CONSTRAINT "RedirectionLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Redirection404" (
    "id" SERIAL NOT NULL,
    "created" TIMESTAMP(3) NOT NULL,
    "url" TEXT NOT NULL,
    "domain" TEXT,
    "agent" TEXT,
    "referrer" TEXT,
    "httpCode" INTEGER NOT NULL DEFAULT 0,
    "requestMethod" TEXT,
    "requestData" TEXT,
    "ip" TEXT,

    CONSTRAINT "Redirection404_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RedirectionOptions" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "values" JSONB NOT NULL DEFAULT '{}',
    "rulesVersion" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "RedirectionOptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeoIndexable" (
    "id" SERIAL NOT NULL,
    "objectType" TEXT NOT NULL,
    "objectId" INTEGER NOT NULL,
    "objectSubType" TEXT NOT NULL DEFAULT 'post',
    "permalink" TEXT NOT NULL DEFAULT '',
    "postStatus" TEXT,
    "authorId" INTEGER,
    "title" TEXT NOT NULL DEFAULT '',
    "focusKeyphrase" TEXT NOT NULL DEFAULT '',
    "seoTitle" TEXT NOT NULL DEFAULT '',
    "metaDescription" TEXT NOT NULL DEFAULT '',
    "canonical" TEXT NOT NULL DEFAULT '',
    "isCornerstone" BOOLEAN NOT NULL DEFAULT false,
    "isRobotsNoindex" BOOLEAN,
    "isRobotsNofollow" BOOLEAN NOT NULL DEFAULT false,
    "seoScore" INTEGER,
    "readabilityScore" INTEGER NOT NULL DEFAULT 0,
    "readingTimeMinutes" INTEGER,
    "linkCount" INTEGER,
    "internalLinkCount" INTEGER NOT NULL DEFAULT 0,
    "externalLinkCount" INTEGER NOT NULL DEFAULT 0,
    "linkedObjectIds" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "analysedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SeoIndexable_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeoOption" (
    "name" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SeoOption_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "SeoUserMeta" (
    "userId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SeoUserMeta_pkey" PRIMARY KEY ("userId","key")
);

-- CreateTable
CREATE TABLE "SeoTrackedKeyphrase" (
    "id" SERIAL NOT NULL,
    "keyphrase" TEXT NOT NULL,
    "externalId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SeoTrackedKeyphrase_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ConsentCategory_name_key" ON "ConsentCategory"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ConsentCookie_name_key" ON "ConsentCookie"("name");

-- CreateIndex
CREATE UNIQUE INDEX "User_login_key" ON "User"("login");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "User_nicename_key" ON "User"("nicename");

-- CreateIndex
CREATE INDEX "ApplicationPassword_userId_idx" ON "ApplicationPassword"("userId");

-- CreateIndex
CREATE INDEX "OAuthAuthorizationCode_clientId_idx" ON "OAuthAuthorizationCode"("clientId");

-- CreateIndex
CREATE INDEX "OAuthAuthorizationCode_userId_idx" ON "OAuthAuthorizationCode"("userId");

-- CreateIndex
CREATE INDEX "OAuthToken_clientId_idx" ON "OAuthToken"("clientId");

-- CreateIndex
CREATE INDEX "OAuthToken_userId_idx" ON "OAuthToken"("userId");

-- CreateIndex
CREATE INDEX "Post_type_status_date_idx" ON "Post"("type", "status", "date");

-- CreateIndex
CREATE INDEX "Post_type_slug_idx" ON "Post"("type", "slug");

-- CreateIndex
CREATE INDEX "Post_parentId_type_idx" ON "Post"("parentId", "type");

-- CreateIndex
CREATE INDEX "Post_authorId_idx" ON "Post"("authorId");

-- CreateIndex
CREATE INDEX "Term_taxonomy_parentId_idx" ON "Term"("taxonomy", "parentId");

-- CreateIndex
CREATE UNIQUE INDEX "Term_taxonomy_slug_key" ON "Term"("taxonomy", "slug");

-- CreateIndex
CREATE INDEX "PostTerm_termId_idx" ON "PostTerm"("termId");

-- CreateIndex
CREATE INDEX "DownloadPackage_title_idx" ON "DownloadPackage"("title");

-- CreateIndex
CREATE INDEX "DownloadPassword_packageId_idx" ON "DownloadPassword"("packageId");

-- CreateIndex
CREATE INDEX "DownloadKey_expiresAt_idx" ON "DownloadKey"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "Language_termLanguageId_key" ON "Language"("termLanguageId");

-- CreateIndex
CREATE UNIQUE INDEX "Language_slug_key" ON "Language"("slug");

-- CreateIndex
CREATE INDEX "Language_termGroup_termId_idx" ON "Language"("termGroup", "termId");

-- CreateIndex
CREATE INDEX "LanguageAssignment_languageId_objectType_objectId_idx" ON "LanguageAssignment"("languageId", "objectType", "objectId");

-- CreateIndex
CREATE UNIQUE INDEX "LanguageAssignment_groupId_languageId_key" ON "LanguageAssignment"("groupId", "languageId");

-- CreateIndex
CREATE INDEX "FormField_formId_order_idx" ON "FormField"("formId", "order");

-- CreateIndex
CREATE UNIQUE INDEX "FormField_formId_key_key" ON "FormField"("formId", "key");

-- CreateIndex
CREATE INDEX "FormSubmission_formId_status_createdAt_idx" ON "FormSubmission"("formId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "FormSubmission_crmContactId_idx" ON "FormSubmission"("crmContactId");

-- CreateIndex
CREATE UNIQUE INDEX "FormSubmission_formId_seqNum_key" ON "FormSubmission"("formId", "seqNum");

-- CreateIndex
CREATE INDEX "FormsMail_submissionId_idx" ON "FormsMail"("submissionId");

-- CreateIndex
CREATE INDEX "GatewayAuditEntry_at_idx" ON "GatewayAuditEntry"("at");

-- CreateIndex
CREATE INDEX "GatewayAuditEntry_section_at_idx" ON "GatewayAuditEntry"("section", "at");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayClusterNode_uid_key" ON "GatewayClusterNode"("uid");

-- CreateIndex
CREATE INDEX "GatewayClusterNode_role_state_idx" ON "GatewayClusterNode"("role", "state");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayDomain_name_key" ON "GatewayDomain"("name");

-- CreateIndex
CREATE INDEX "GatewayDomain_tenant_idx" ON "GatewayDomain"("tenant");

-- CreateIndex
CREATE INDEX "GatewayDomain_trialEndsAt_idx" ON "GatewayDomain"("trialEndsAt");

-- CreateIndex
CREATE INDEX "GatewayCertificate_notAfter_idx" ON "GatewayCertificate"("notAfter");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayEvent_dedupeKey_key" ON "GatewayEvent"("dedupeKey");

-- CreateIndex
CREATE INDEX "GatewayEvent_kind_at_idx" ON "GatewayEvent"("kind", "at");

-- CreateIndex
CREATE INDEX "GatewayEvent_at_idx" ON "GatewayEvent"("at");

-- CreateIndex
CREATE INDEX "GatewayLoginToken_userId_idx" ON "GatewayLoginToken"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayGroupImport_connector_groupName_key" ON "GatewayGroupImport"("connector", "groupName");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayFunctionalUser_email_key" ON "GatewayFunctionalUser"("email");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayUser_username_key" ON "GatewayUser"("username");

-- CreateIndex
CREATE INDEX "GatewaySession_userId_idx" ON "GatewaySession"("userId");

-- CreateIndex
CREATE INDEX "GatewaySession_expiresAt_idx" ON "GatewaySession"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "AccountedEmail_address_key" ON "AccountedEmail"("address");

-- CreateIndex
CREATE INDEX "AccountedEmail_domain_idx" ON "AccountedEmail"("domain");

-- CreateIndex
CREATE INDEX "AccountedEmail_lastSeenOn_idx" ON "AccountedEmail"("lastSeenOn");

-- CreateIndex
CREATE INDEX "AccountedEmail_type_idx" ON "AccountedEmail"("type");

-- CreateIndex
CREATE INDEX "GatewayMessage_receivedOn_id_idx" ON "GatewayMessage"("receivedOn", "id");

-- CreateIndex
CREATE INDEX "GatewayMessage_sender_receivedOn_id_idx" ON "GatewayMessage"("sender", "receivedOn", "id");

-- CreateIndex
CREATE INDEX "GatewayMessage_headerFromAddress_receivedOn_id_idx" ON "GatewayMessage"("headerFromAddress", "receivedOn", "id");

-- CreateIndex
CREATE INDEX "GatewayMessage_nodeId_receivedOn_id_idx" ON "GatewayMessage"("nodeId", "receivedOn", "id");

-- CreateIndex
CREATE INDEX "GatewayMessage_hostname_receivedOn_id_idx" ON "GatewayMessage"("hostname", "receivedOn", "id");

-- CreateIndex
CREATE INDEX "GatewayMessage_quarantined_receivedOn_id_idx" ON "GatewayMessage"("quarantined", "receivedOn", "id");

-- CreateIndex
CREATE INDEX "GatewayMessage_result_receivedOn_id_idx" ON "GatewayMessage"("result", "receivedOn", "id");

-- CreateIndex
CREATE INDEX "GatewayMessage_state_receivedOn_id_idx" ON "GatewayMessage"("state", "receivedOn", "id");

-- CreateIndex
CREATE INDEX "GatewayMessage_size_id_idx" ON "GatewayMessage"("size", "id");

-- CreateIndex
CREATE INDEX "GatewayMessage_quarantined_size_id_idx" ON "GatewayMessage"("quarantined", "size", "id");

-- CreateIndex
CREATE INDEX "GatewayMessageAddress_address_receivedOn_messageId_idx" ON "GatewayMessageAddress"("address", "receivedOn", "messageId");

-- CreateIndex
CREATE INDEX "GatewayMessageAddress_domain_receivedOn_messageId_idx" ON "GatewayMessageAddress"("domain", "receivedOn", "messageId");

-- CreateIndex
CREATE INDEX "GatewayMessageUriHost_host_receivedOn_messageId_idx" ON "GatewayMessageUriHost"("host", "receivedOn", "messageId");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayAttachment_messageId_position_key" ON "GatewayAttachment"("messageId", "position");

-- CreateIndex
CREATE INDEX "GatewayMessageReport_messageId_idx" ON "GatewayMessageReport"("messageId");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayRestrictedSender_sender_key" ON "GatewayRestrictedSender"("sender");

-- CreateIndex
CREATE INDEX "GatewayRestrictedSender_restrictedAt_idx" ON "GatewayRestrictedSender"("restrictedAt");

-- CreateIndex
CREATE INDEX "RedirectionItem_matchUrl_status_idx" ON "RedirectionItem"("matchUrl", "status");

-- CreateIndex
CREATE INDEX "RedirectionItem_status_position_id_idx" ON "RedirectionItem"("status", "position", "id");

-- CreateIndex
CREATE INDEX "RedirectionItem_groupId_idx" ON "RedirectionItem"("groupId");

-- CreateIndex
CREATE INDEX "RedirectionGroup_moduleId_idx" ON "RedirectionGroup"("moduleId");

-- CreateIndex
CREATE INDEX "RedirectionLog_created_idx" ON "RedirectionLog"("created");

-- CreateIndex
CREATE INDEX "RedirectionLog_redirectionId_idx" ON "RedirectionLog"("redirectionId");

-- CreateIndex
CREATE INDEX "RedirectionLog_ip_idx" ON "RedirectionLog"("ip");

-- CreateIndex
CREATE INDEX "Redirection404_created_idx" ON "Redirection404"("created");

-- CreateIndex
CREATE INDEX "Redirection404_url_idx" ON "Redirection404"("url");

-- CreateIndex
CREATE INDEX "Redirection404_ip_idx" ON "Redirection404"("ip");

-- CreateIndex
CREATE INDEX "SeoIndexable_objectSubType_postStatus_idx" ON "SeoIndexable"("objectSubType", "postStatus");

-- CreateIndex
CREATE INDEX "SeoIndexable_permalink_idx" ON "SeoIndexable"("permalink");

-- CreateIndex
CREATE UNIQUE INDEX "SeoIndexable_objectType_objectId_key" ON "SeoIndexable"("objectType", "objectId");

-- CreateIndex
CREATE UNIQUE INDEX "SeoTrackedKeyphrase_keyphrase_key" ON "SeoTrackedKeyphrase"("keyphrase");

-- AddForeignKey
ALTER TABLE "ConsentCookie" ADD CONSTRAINT "ConsentCookie_categoryId_fkey" FOREIGN KEY ("categoryId") REFERENCES "ConsentCategory"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConsentCookie" ADD CONSTRAINT "ConsentCookie_scanId_fkey" FOREIGN KEY ("scanId") REFERENCES "ConsentScan"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApplicationPassword" ADD CONSTRAINT "ApplicationPassword_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthAuthorizationCode" ADD CONSTRAINT "OAuthAuthorizationCode_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "OAuthClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthAuthorizationCode" ADD CONSTRAINT "OAuthAuthorizationCode_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthToken" ADD CONSTRAINT "OAuthToken_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "OAuthClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OAuthToken" ADD CONSTRAINT "OAuthToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Post" ADD CONSTRAINT "Post_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostTerm" ADD CONSTRAINT "PostTerm_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostTerm" ADD CONSTRAINT "PostTerm_termId_fkey" FOREIGN KEY ("termId") REFERENCES "Term"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DownloadPassword" ADD CONSTRAINT "DownloadPassword_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "DownloadPackage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DownloadKey" ADD CONSTRAINT "DownloadKey_packageId_fkey" FOREIGN KEY ("packageId") REFERENCES "DownloadPackage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LanguageAssignment" ADD CONSTRAINT "LanguageAssignment_languageId_fkey" FOREIGN KEY ("languageId") REFERENCES "Language"("termId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LanguageAssignment" ADD CONSTRAINT "LanguageAssignment_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "TranslationGroup"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FormField" ADD CONSTRAINT "FormField_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FormSubmission" ADD CONSTRAINT "FormSubmission_formId_fkey" FOREIGN KEY ("formId") REFERENCES "Form"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GatewaySession" ADD CONSTRAINT "GatewaySession_userId_fkey" FOREIGN KEY ("userId") REFERENCES "GatewayUser"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GatewayMessageAddress" ADD CONSTRAINT "GatewayMessageAddress_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "GatewayMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GatewayMessageUriHost" ADD CONSTRAINT "GatewayMessageUriHost_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "GatewayMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GatewayAttachment" ADD CONSTRAINT "GatewayAttachment_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "GatewayMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GatewayScanAnalysis" ADD CONSTRAINT "GatewayScanAnalysis_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "GatewayMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GatewayMessageReport" ADD CONSTRAINT "GatewayMessageReport_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "GatewayMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RedirectionItem" ADD CONSTRAINT "RedirectionItem_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "RedirectionGroup"("id") ON DELETE CASCADE ON UPDATE CASCADE;

